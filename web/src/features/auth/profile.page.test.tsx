import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { sessionStore } from './session.store';

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
});
