import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

beforeEach(() => {
  sessionStore.reset();
});

describe('verify e-mail page', () => {
  it('confirms the token once and says the address is verified', async () => {
    const { requests } = stubFetch({
      'POST /api/auth/verify-email': { body: { success: true, message: 'Your e-mail address is verified.' } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/verify-email?token=tok-123');

    expect(await screen.findByRole('heading', { name: 'E-mail verified' }, { timeout: 5000 }) /* the page loads lazily */).toBeInTheDocument();
    expect(document.title).toBe('Verify E-mail · Encore');
    expect(screen.getByText('Your e-mail address is verified.')).toBeInTheDocument();
    const posts = requests.filter((request) => request.path === '/api/auth/verify-email');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ token: 'tok-123' });

    await user.click(screen.getByRole('link', { name: 'Go to Sign In' }));
    expect(currentPath(router)).toBe('/signin');
  });

  it('says when the link is used, expired or wrong', async () => {
    stubFetch({
      'POST /api/auth/verify-email': { status: 400, body: { message: 'This verification link is invalid, expired or already used.' } },
    });
    renderApp('/verify-email?token=spent');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'E-mail not verified' })).toBeInTheDocument();
    expect(within(alert).getByText('This verification link is invalid, expired or already used.')).toBeInTheDocument();
    expect(within(alert).getByText('Sign in and ask for a new link from your profile.')).toBeInTheDocument();
  });

  it('sends nothing for a link without a token', async () => {
    const { requests } = stubFetch({});
    renderApp('/verify-email');
    expect(await screen.findByRole('heading', { name: 'E-mail not verified' })).toBeInTheDocument();
    expect(requests.filter((request) => request.path.startsWith('/api/auth'))).toHaveLength(0);
  });

  it('refreshes the profile of a signed-in user, who goes home from here', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('userName', 'ada');
    localStorage.setItem('email', 'ada@example.com');
    sessionStore.syncWithStoredToken();
    stubFetch({
      'POST /api/auth/verify-email': { body: { success: true, message: 'Your e-mail address is verified.' } },
      'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: true } },
    });
    renderApp('/verify-email?token=tok-456');
    expect(await screen.findByRole('heading', { name: 'E-mail verified' })).toBeInTheDocument();
    await waitFor(() => expect(sessionStore.getState().emailVerified).toBe(true));
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
