import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

beforeEach(() => {
  sessionStore.reset();
});

async function openForgotView() {
  const user = userEvent.setup();
  const view = renderApp('/signin');
  await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
  expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
  expect(document.title).toBe('Forgot Password · Encore');
  return { user, ...view };
}

describe('forgot password view', () => {
  it('asks for both fields, then for a valid address, and clears the message on edit', async () => {
    const { requests } = stubFetch({});
    const { user } = await openForgotView();

    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText('Please enter both email and username')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email Address'), 'ada-at-example');
    expect(screen.queryByText('Please enter both email and username')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email Address'), '.com');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();
    expect(requests.filter((request) => request.path.startsWith('/api/email'))).toHaveLength(0);
  });

  it('sends the link, shows "Email Sent!" with the address and returns to the sign-in form', async () => {
    const { requests } = stubFetch({
      'POST /api/email/forgot-password': { body: { success: true, message: 'If the account exists, a link was sent.' } },
    });
    const { user } = await openForgotView();
    await user.type(screen.getByLabelText('Email Address'), ' ada@example.com ');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByRole('heading', { name: 'Email Sent!' })).toBeInTheDocument();
    expect(screen.getByText(/ada@example\.com/)).toBeInTheDocument();
    expect(await screen.findByText('Password reset link sent to your email!')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/email/forgot-password')?.body).toEqual({
      email: 'ada@example.com',
      userName: 'ada',
    });

    await user.click(screen.getByRole('button', { name: 'Return to Sign In' }));
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it("shows the server's message inline and as a toast when sending fails", async () => {
    stubFetch({ 'POST /api/email/forgot-password': { status: 429, body: { message: 'Too many reset requests.' } } });
    const { user } = await openForgotView();
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findAllByText('Too many reset requests.')).toHaveLength(2);
  });

  it("falls back to 'Failed to send reset email' without a server message", async () => {
    stubFetch({ 'POST /api/email/forgot-password': { status: 502, text: '<html>Bad gateway</html>' } });
    const { user } = await openForgotView();
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findAllByText('Failed to send reset email')).toHaveLength(2);
  });

  it("goes back with 'Back to Sign In'", async () => {
    stubFetch({});
    const { user } = await openForgotView();
    await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });
});
