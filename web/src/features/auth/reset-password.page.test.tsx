import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

const LINK = '/reset-password?token=abc123&email=ada%40example.com';

beforeEach(() => {
  sessionStore.reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('reset password page', () => {
  it.each(['/reset-password', '/reset-password?token=abc123', '/reset-password?email=ada%40example.com'])('shows the invalid-link view for %s', (path) => {
    stubFetch({});
    renderApp(path);
    expect(screen.getByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/signin');
  });

  it('offers a new link through the forgot-password view', async () => {
    stubFetch({});
    const user = userEvent.setup();
    const { router } = renderApp('/reset-password');
    await user.click(screen.getByRole('link', { name: 'Request a New Link' }));
    expect(currentPath(router)).toBe('/signin');
    expect(screen.getByLabelText('Email Address')).toBeInTheDocument();
  });

  it('checks the passwords: required, matching, long enough', async () => {
    const { requests } = stubFetch({});
    const user = userEvent.setup();
    renderApp(LINK);
    expect(document.title).toBe('Reset Password · Encore');
    const submit = screen.getByRole('button', { name: 'Reset Password' });

    await user.click(submit);
    expect(screen.getByText('Please enter a new password')).toBeInTheDocument();

    await user.type(screen.getByLabelText('New Password'), 'short');
    expect(screen.queryByText('Please enter a new password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm Password'), 'shorter');
    await user.click(submit);
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'short');
    await user.click(submit);
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(requests.filter((request) => request.path.startsWith('/api/email'))).toHaveLength(0);
  });

  it('resets the password, says so, and goes to /signin after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    const { requests } = stubFetch({
      'POST /api/email/reset-password': { body: { success: true, message: 'Password has been reset.' } },
    });
    const { router } = renderApp(LINK);
    await user.type(screen.getByLabelText('New Password'), 'Brand-new-pass1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Brand-new-pass1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { name: 'Password updated' })).toBeInTheDocument();
    expect(screen.getAllByText('Password reset successfully! Please log in with your new password.').length).toBeGreaterThan(0);
    expect(requests.find((request) => request.path === '/api/email/reset-password')?.body).toEqual({
      Email: 'ada@example.com',
      Token: 'abc123',
      NewPassword: 'Brand-new-pass1',
    });

    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(currentPath(router)).toBe(LINK);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(currentPath(router)).toBe('/signin'));
  });

  it("keeps the server's message visible, then still goes to /signin after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    stubFetch({ 'POST /api/email/reset-password': { status: 400, body: { message: 'This reset link has expired.' } } });
    const { router } = renderApp(LINK);
    await user.type(screen.getByLabelText('New Password'), 'Brand-new-pass1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Brand-new-pass1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { name: 'Password not reset' })).toBeInTheDocument();
    expect(screen.getAllByText('This reset link has expired.').length).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(currentPath(router)).toBe('/signin'));
  });

  it("falls back to 'Failed to reset password'", async () => {
    const user = userEvent.setup();
    stubFetch({ 'POST /api/email/reset-password': { status: 500 } });
    renderApp(LINK);
    await user.type(screen.getByLabelText('New Password'), 'Brand-new-pass1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Brand-new-pass1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect((await screen.findAllByText('Failed to reset password')).length).toBeGreaterThan(0);
  });
});
