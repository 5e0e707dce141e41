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

  it('creates an app password, shows it once with a copy button, lists and revokes it', async () => {
    const saved: { id: number; name: string; createdAt: string; lastUsedAt: string | null }[] = [
      { id: 3, name: 'Old tablet', createdAt: '2026-01-05T10:00:00.000Z', lastUsedAt: null },
    ];
    const { requests } = stubFetch({
      'GET /api/auth/app-passwords': () => ({ body: saved }),
      'GET /api/auth/api-keys': { body: [] },
      'POST /api/auth/app-passwords': (request) => {
        const { name } = request.body as { name: string };
        saved.push({ id: 4, name, createdAt: '2026-02-01T10:00:00.000Z', lastUsedAt: '2026-02-02T10:00:00.000Z' });
        return { status: 201, body: { id: 4, name, password: 'k7mq-2xhp-wd9c-tf3n' } };
      },
      'DELETE /api/auth/app-passwords/3': () => {
        saved.splice(0, 1);
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    expect(screen.getByRole('heading', { level: 2, name: 'Apps' })).toBeInTheDocument();
    expect(
      screen.getByText('Phone and desktop apps (Subsonic clients) connect with the server address, your user name and an app password or API key.'),
    ).toBeInTheDocument();
    const passwords = screen.getByRole('region', { name: 'App passwords' });
    expect(await within(passwords).findByText('Old tablet')).toBeInTheDocument();
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();

    await user.click(within(passwords).getByRole('button', { name: 'Create App Password' }));
    expect(within(passwords).getByText('Please enter a name')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.type(within(passwords).getByLabelText('Name'), '  Symfonium ');
    await user.click(within(passwords).getByRole('button', { name: 'Create App Password' }));
    expect(await within(passwords).findByText('k7mq-2xhp-wd9c-tf3n')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Symfonium' });
    expect(within(passwords).getByText('The app password for "Symfonium"')).toBeInTheDocument();
    expect(within(passwords).getByText("Copy it now: it won't be shown again.")).toBeInTheDocument();
    await user.click(within(passwords).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('k7mq-2xhp-wd9c-tf3n');
    expect(within(passwords).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await within(passwords).findByText('Symfonium')).toBeInTheDocument();

    await user.click(within(passwords).getByRole('button', { name: 'Done' }));
    expect(within(passwords).queryByText('k7mq-2xhp-wd9c-tf3n')).not.toBeInTheDocument();

    await user.click(within(passwords).getByRole('button', { name: 'Revoke Old tablet' }));
    expect(within(passwords).getByText('Revoke "Old tablet"? Apps using it stop working at once.')).toBeInTheDocument();
    await user.click(within(passwords).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('"Old tablet" revoked')).toBeInTheDocument();
    await waitFor(() => expect(within(passwords).queryByText('Old tablet')).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/auth/app-passwords/3')).toBe(true);
  });

  it("creates an API key and shows the server's refusal; Hebrew texts", async () => {
    let refuse = true;
    stubFetch({
      'GET /api/auth/app-passwords': { body: [] },
      'GET /api/auth/api-keys': { body: [] },
      'POST /api/auth/api-keys': () =>
        refuse
          ? { status: 409, body: { message: 'You can have at most 25 API keys. Revoke one you no longer use.' } }
          : { status: 201, body: { id: 9, name: 'Feishin', key: 'encore_abc' } },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    const keys = screen.getByRole('region', { name: 'API keys' });
    await user.type(within(keys).getByLabelText('Name'), 'Feishin');
    await user.click(within(keys).getByRole('button', { name: 'Create API Key' }));
    expect(await screen.findByText('You can have at most 25 API keys. Revoke one you no longer use.')).toBeInTheDocument();
    refuse = false;
    await user.click(within(keys).getByRole('button', { name: 'Create API Key' }));
    expect(await within(keys).findByText('encore_abc')).toBeInTheDocument();
    expect(within(keys).getByText('The API key for "Feishin"')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'עברית' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'אפליקציות' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'מפתחות API' })).toBeInTheDocument();
    expect(screen.getByText('העתיקו עכשיו: זה לא יוצג שוב.')).toBeInTheDocument();
  });
});
