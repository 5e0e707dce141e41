import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

beforeEach(() => {
  sessionStore.reset();
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userName', 'ada');
  localStorage.setItem('email', 'ada@example.com');
  sessionStore.syncWithStoredToken();
});

afterEach(() => {
  act(() => setLanguage('en'));
});

describe('profile page', () => {
  it('shows the account and saves a new user name and e-mail through PUT /auth/profile', async () => {
    const { requests } = stubFetch({
      'PUT /api/auth/profile': (request) => ({ body: request.body }),
    });
    const user = userEvent.setup();
    renderApp('/profile');
    expect(screen.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeInTheDocument();
    const name = screen.getByLabelText('Username');
    const email = screen.getByLabelText('Email');
    expect(name).toHaveValue('ada');
    expect(email).toHaveValue('ada@example.com');
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();

    await user.clear(name);
    await user.type(name, 'ada lovelace');
    await user.clear(email);
    await user.type(email, 'ada@lovelace.dev');
    await user.click(save);
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ userName: 'ada lovelace', email: 'ada@lovelace.dev' });
    expect(localStorage.getItem('userName')).toBe('ada lovelace');
    expect(within(screen.getByRole('banner')).getByText('AL')).toBeInTheDocument();
  });

  it("shows the server's message when a change is refused", async () => {
    stubFetch({ 'PUT /api/auth/profile': { status: 409, body: { message: 'That user name is taken' } } });
    const user = userEvent.setup();
    renderApp('/profile');
    await user.type(screen.getByLabelText('Username'), '2');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('That user name is taken')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('ada2');
  });

  it('sends a password link to the account e-mail, and switches the language', async () => {
    const { requests } = stubFetch({ 'POST /api/email/forgot-password': { body: { success: true, message: 'sent' } } });
    const user = userEvent.setup();
    renderApp('/profile');
    await user.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    expect(await screen.findByText('Check your inbox: the link is on its way to ada@example.com.')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/email/forgot-password')?.body).toEqual({ email: 'ada@example.com', userName: 'ada' });

    await user.click(screen.getByRole('button', { name: 'עברית' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(screen.getByRole('heading', { level: 1, name: 'הפרופיל שלך' })).toBeInTheDocument();
  });

  it('changes the password with the current one and keeps this session with the new token', async () => {
    const { requests } = stubFetch({
      'PUT /api/auth/password': { body: { token: 'new-tok', user: { userName: 'ada', email: 'ada@example.com' } } },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    await user.type(screen.getByLabelText('Current Password'), 'old password 1');
    await user.type(screen.getByLabelText('New Password'), 'New password 2!');
    expect(screen.getByText('Password strength: Strong')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm Password'), 'New password 2!');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText('Password changed. Your other devices have been signed out.')).toBeInTheDocument();
    const sent = requests.find((r) => r.path === '/api/auth/password');
    expect(sent?.method).toBe('PUT');
    expect(sent?.body).toEqual({ currentPassword: 'old password 1', newPassword: 'New password 2!' });
    expect(sent?.headers.get('Authorization')).toBe('Bearer tok');
    // Kept where the old token was ("remember me" put it in localStorage), still signed in.
    expect(localStorage.getItem('token')).toBe('new-tok');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(sessionStore.getState().isLoggedIn).toBe(true);
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });

  it('checks the fields before sending, and shows the server refusing the current password', async () => {
    const { requests } = stubFetch({
      'PUT /api/auth/password': { status: 400, body: { message: 'Your current password is not correct.' } },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    const change = screen.getByRole('button', { name: 'Change Password' });
    await user.click(change);
    expect(screen.getByText('Please enter your current password')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current Password'), 'wrong one');
    await user.type(screen.getByLabelText('New Password'), 'New password 2!');
    await user.type(screen.getByLabelText('Confirm Password'), 'Another one 3!');
    await user.click(change);
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/auth/password')).toBe(false);

    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'New password 2!');
    await user.click(change);
    expect((await screen.findAllByText('Your current password is not correct.')).length).toBeGreaterThan(0);
    expect(localStorage.getItem('token')).toBe('tok');
    expect(sessionStore.getState().isLoggedIn).toBe(true);
    expect(screen.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeInTheDocument();
  });

  it('offers the e-mailed link for a forgotten current password', () => {
    stubFetch({});
    renderApp('/profile');
    expect(screen.getByRole('heading', { name: 'Forgot your current password?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email Me a Link' })).toBeInTheDocument();
  });
});
