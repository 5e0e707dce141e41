import { authMessagesEn } from '@encore/common/messages.en';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import type { GoogleCredentialResponse } from './google-identity';
import { sessionStore } from '../../lib/session.store';

/** Google's script stands in at the window, as the real one does once loaded. */
let respond: ((response: GoogleCredentialResponse) => void) | null = null;

beforeEach(() => {
  sessionStore.reset();
  respond = null;
  window.google = {
    accounts: {
      id: {
        initialize: (config) => {
          respond = config.callback;
        },
        renderButton: () => {},
        cancel: () => {},
      },
    },
  };
});

afterEach(() => {
  delete window.google;
  act(() => setLanguage('en'));
});

function stubGoogleRefusal() {
  return stubFetch({
    'GET /api/config': { body: { googleClientId: 'client.apps.googleusercontent.com', maxUploadMb: 10 } },
    'POST /api/auth/google-login': { status: 409, body: { message: authMessagesEn.googleEmailUnverified } },
  });
}

describe('Continue with Google', () => {
  it('shows the advice for an unverified address as a toast and stays signed out', async () => {
    const { requests } = stubGoogleRefusal();
    renderApp('/signin');
    await waitFor(() => expect(respond).not.toBeNull());
    act(() => respond?.({ credential: 'header.payload.signature' }));

    expect(await screen.findByText(/its address has not been verified/)).toBeInTheDocument();
    expect(screen.getByText(/e-mailed this address a link to reset/)).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/auth/google-login')?.body).toEqual({ credential: 'header.payload.signature' });
    expect(sessionStore.getState().isLoggedIn).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('gives the advice in Hebrew', async () => {
    act(() => setLanguage('he'));
    stubGoogleRefusal();
    renderApp('/signin');
    await waitFor(() => expect(respond).not.toBeNull());
    act(() => respond?.({ credential: 'header.payload.signature' }));
    expect(await screen.findByText(/הכתובת שלו לא אומתה/)).toBeInTheDocument();
  });
});
