import { ssoMessagesEn } from '@encore/common/sso.contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { sessionStore } from '../../lib/session.store';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';

const user = { userName: 'ada', email: 'ada@idp.example' };

function config(sso: unknown) {
  return { body: { googleClientId: null, maxUploadMb: 10, signUp: 'open', sso } };
}

beforeEach(() => {
  sessionStore.reset();
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  act(() => setLanguage('en'));
});

describe('single sign-on on the auth screen', () => {
  it('shows no button when the server offers no single sign-on', async () => {
    const { requests } = stubFetch({ 'GET /api/config': config({ oidc: null, trustedHeader: false }) });
    renderApp('/signin');
    await waitFor(() => expect(requests.some((request) => request.path === '/api/config')).toBe(true));
    expect(screen.queryByRole('button', { name: /SSO/ })).not.toBeInTheDocument();
    expect(requests.some((request) => request.path === '/api/auth/proxy-signin')).toBe(false);
  });

  it("shows the server's button text, or its own words in the user's language", async () => {
    stubFetch({ 'GET /api/config': config({ oidc: { buttonText: 'Sign in with Authelia' }, trustedHeader: false }) });
    const first = renderApp('/signin');
    expect(await screen.findByRole('button', { name: 'Sign in with Authelia' })).toBeEnabled();
    first.unmount();

    act(() => setLanguage('he'));
    stubFetch({ 'GET /api/config': config({ oidc: { buttonText: null }, trustedHeader: false }) });
    renderApp('/signin');
    expect(await screen.findByRole('button', { name: 'התחברות עם SSO' })).toBeInTheDocument();
  });

  it('starts with where to go and "Remember me", and says why when the provider is down', async () => {
    const { requests } = stubFetch({
      'GET /api/config': config({ oidc: { buttonText: null }, trustedHeader: false }),
      'POST /api/auth/oidc/start': { status: 503, body: { message: ssoMessagesEn.unavailable } },
    });
    renderApp('/signin?next=%2Fplaylists');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with SSO' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ssoMessagesEn.unavailable);
    expect(requests.find((request) => request.path === '/api/auth/oidc/start')?.body).toEqual({ next: '/playlists', rememberMe: false });
    expect(screen.getByRole('button', { name: 'Sign in with SSO' })).toBeEnabled();
  });

  it("completes the provider's answer, signs in and goes where the sign-in started", async () => {
    const { requests } = stubFetch({
      'GET /api/config': config({ oidc: { buttonText: null }, trustedHeader: false }),
      'POST /api/auth/oidc/callback': { body: { token: 'session-token', user, next: '/playlists', rememberMe: true } },
      'GET /api/playlists': { body: [] },
    });
    const { router } = renderApp('/signin?code=the-code&state=the-state&iss=http%3A%2F%2Fidp');
    await waitFor(() => expect(router.state.location.pathname).toBe('/playlists'));
    expect(requests.find((request) => request.path === '/api/auth/oidc/callback')?.body).toEqual({
      query: '?code=the-code&state=the-state&iss=http%3A%2F%2Fidp',
    });
    expect(requests.filter((request) => request.path === '/api/auth/oidc/callback')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBe('session-token');
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: true, userName: 'ada' });
  });

  it('shows a refusal on the auth screen and takes the spent answer out of the address', async () => {
    stubFetch({
      'GET /api/config': config({ oidc: { buttonText: null }, trustedHeader: false }),
      'POST /api/auth/oidc/callback': { status: 409, body: { message: ssoMessagesEn.emailUnverifiedAtProvider } },
    });
    const { router } = renderApp('/signin?code=other-code&state=s2');
    expect(await screen.findByRole('alert')).toHaveTextContent(ssoMessagesEn.emailUnverifiedAtProvider);
    expect(currentPath(router)).toBe('/signin');
    expect(sessionStore.getState().isLoggedIn).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("behind a trusted proxy, signs in by the proxy's header without the form", async () => {
    const { requests } = stubFetch({
      'GET /api/config': config({ oidc: null, trustedHeader: true }),
      'POST /api/auth/proxy-signin': { body: { token: 'proxy-token', user } },
    });
    const { router } = renderApp('/signin?next=%2Fupload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(requests.filter((request) => request.path === '/api/auth/proxy-signin')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBe('proxy-token');
  });
});
