import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

function signInAs(userName: string, email: string) {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userName', userName);
  localStorage.setItem('email', email);
  sessionStore.syncWithStoredToken();
}

async function openProfile() {
  const user = userEvent.setup();
  renderApp('/');
  await user.click(screen.getByRole('button', { name: 'Open profile' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'User Profile' }) };
}

beforeEach(() => {
  sessionStore.reset();
});

afterEach(() => {
  act(() => setLanguage('en'));
});

describe('e-mail verification in the profile dialog', () => {
  it('shows an unverified address and resends the link', async () => {
    const { requests } = stubFetch({
      'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: false } },
      'POST /api/auth/resend-verification': { body: { success: true, message: 'A verification link is on its way to ada@example.com.' } },
    });
    signInAs('ada', 'ada@example.com');
    const { user, dialog } = await openProfile();
    expect(await within(dialog).findByText('Not verified')).toBeInTheDocument();
    expect(within(dialog).queryByText('Verified')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('A verification link is on its way to ada@example.com.')).toBeInTheDocument();
    expect(requests.filter((request) => request.path === '/api/auth/resend-verification')).toHaveLength(1);
  });

  it("shows the server's message when resending is refused", async () => {
    stubFetch({
      'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: false } },
      'POST /api/auth/resend-verification': { status: 429, body: { message: 'Too many verification e-mails. Please try again in an hour.' } },
    });
    signInAs('ada', 'ada@example.com');
    const { user, dialog } = await openProfile();
    await user.click(await within(dialog).findByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('Too many verification e-mails. Please try again in an hour.')).toBeInTheDocument();
  });

  it('marks a verified address and offers no resend', async () => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: true } } });
    signInAs('ada', 'ada@example.com');
    const { dialog } = await openProfile();
    expect(await within(dialog).findByText('Verified')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Resend verification e-mail' })).not.toBeInTheDocument();
  });

  it('says nothing either way when the profile does not say, and keeps the session', async () => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com' } } });
    signInAs('ada', 'ada@example.com');
    const { dialog } = await openProfile();
    await waitFor(() => expect(sessionStore.getState().loading).toBe(false));
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: true, emailVerified: null });
    expect(within(dialog).queryByText('Verified')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Not verified')).not.toBeInTheDocument();
  });

  it('speaks Hebrew too', async () => {
    act(() => setLanguage('he'));
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: false } } });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    renderApp('/');
    await user.click(screen.getByRole('button', { name: 'פתיחת הפרופיל' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'שליחת אימייל אימות מחדש' })).toBeInTheDocument());
  });
});
