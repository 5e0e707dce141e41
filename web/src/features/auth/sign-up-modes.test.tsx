import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { sessionStore } from '../../lib/session.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';

const config = (signUp: 'open' | 'invite' | 'closed') => ({ body: { googleClientId: null, maxUploadMb: 10, signUp } });

beforeEach(() => sessionStore.reset());
afterEach(() => {
  act(() => setLanguage('en'));
});

describe('the auth screen and who may sign up', () => {
  it('has no sign-up tab when sign-up is closed, says how to get an account, and /signup shows sign-in', async () => {
    stubFetch({ 'GET /api/config': config('closed') });
    renderApp('/signup');
    const note = await screen.findByTestId('signup-closed');
    expect(note).toHaveTextContent('Sign-up is closed on this Encore. To get an account, ask the administrator of its server');
    // Only what can be done: the server's command, or invitations once sign-up takes them (the admin page creates no account).
    expect(note).toHaveTextContent("'user create' command, or switch sign-up to invitations and invite you");
    expect(screen.queryByRole('tab', { name: 'Sign Up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('says so in Hebrew too', async () => {
    act(() => setLanguage('he'));
    stubFetch({ 'GET /api/config': config('closed') });
    renderApp('/signin');
    const note = await screen.findByTestId('signup-closed');
    expect(note).toHaveTextContent('ההרשמה ל-Encore הזה סגורה');
    expect(note).toHaveTextContent("'user create'");
  });

  it('under invite, shows no form without an invitation link, and says how to get one', async () => {
    stubFetch({ 'GET /api/config': config('invite') });
    renderApp('/signup');
    expect(await screen.findByTestId('signup-invite-only')).toHaveTextContent('by invitation only');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('with an invitation link, fills in the invited address and signs up with the invitation', async () => {
    const { requests } = stubFetch({
      'GET /api/config': config('invite'),
      'POST /api/auth/invitation': { body: { email: 'guest@example.com' } },
      'POST /api/auth/signup': {
        status: 201,
        body: { message: 'Account created. You can sign in now.', user: { userName: 'guest', email: 'guest@example.com' } },
      },
    });
    const user = userEvent.setup();
    renderApp('/signup?invitation=tok-123');
    expect(await screen.findByTestId('signup-invited')).toHaveTextContent('You were invited as guest@example.com.');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('guest@example.com'));
    expect(requests.find((request) => request.path === '/api/auth/invitation')?.body).toEqual({ token: 'tok-123' });

    await user.type(screen.getByLabelText('Username'), 'guest');
    await user.type(screen.getByLabelText('Password'), 'correct horse 1');
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Account created. You can sign in now.')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/auth/signup')?.body).toEqual({
      userName: 'guest',
      email: 'guest@example.com',
      password: 'correct horse 1',
      invitation: 'tok-123',
    });
  });

  it("says when an invitation link is no longer valid, and shows the server's refusal of the sign-up", async () => {
    stubFetch({
      'GET /api/config': config('invite'),
      'POST /api/auth/invitation': {
        status: 404,
        body: { message: 'This invitation link is invalid, expired or already used. Ask the administrator for a new one.' },
      },
      'POST /api/auth/signup': {
        status: 403,
        body: { message: 'This invitation link is invalid, expired or already used. Ask the administrator for a new one.' },
      },
    });
    const user = userEvent.setup();
    renderApp('/signup?invitation=used');
    expect(await screen.findByTestId('signup-invitation-invalid')).toHaveTextContent('invalid, expired or already used');
    await user.type(screen.getByLabelText('Username'), 'late');
    await user.type(screen.getByLabelText('Email'), 'late@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse 1');
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(screen.getAllByText(/invalid, expired or already used/)).toHaveLength(2));
  });

  it('keeps the sign-up tab when sign-up is open, and an older server without the setting counts as open', async () => {
    stubFetch({ 'GET /api/config': { body: { googleClientId: null, maxUploadMb: 10 } } });
    renderApp('/signup');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.queryByTestId('signup-closed')).not.toBeInTheDocument();
  });
});
