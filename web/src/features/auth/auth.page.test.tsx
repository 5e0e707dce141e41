import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

beforeEach(() => {
  sessionStore.reset();
  stubFetch({});
});

afterEach(() => {
  vi.useRealTimers();
});

describe('auth screen: field checks', () => {
  it('shows each sign-in message on blur and clears it when the field is edited', async () => {
    const user = userEvent.setup();
    renderApp('/signin');

    await user.click(screen.getByLabelText('Username'));
    await user.tab();
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');

    await user.tab(); // leaves the password field empty
    await user.click(document.body);
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Username'), 'ada');
    expect(screen.queryByText('Username is required')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('shows each sign-up message on blur and clears it when the field is edited', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');

    await user.click(email);
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(email, 'not-an-address');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();

    await user.type(password, 'short');
    await user.tab();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(password, '-and-longer');
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();

    const terms = screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ });
    await user.click(terms);
    await user.click(terms);
    await user.tab();
    expect(screen.getByText('You must accept the terms and conditions')).toBeInTheDocument();
    await user.click(terms);
    expect(screen.queryByText('You must accept the terms and conditions')).not.toBeInTheDocument();
  });

  it('refuses pasted control characters, with the rule the server applies', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    await user.click(screen.getByLabelText('Username'));
    await user.paste('ada\u0000');
    await user.tab();
    expect(screen.getByText('Remove the invisible control characters from this field')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Username'), '{Backspace}');
    expect(screen.queryByText('Remove the invisible control characters from this field')).not.toBeInTheDocument();
  });

  it('runs every check of the tab on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({});
    renderApp('/signup');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('You must accept the terms and conditions')).toBeInTheDocument();
    expect(requests.filter((request) => request.path.startsWith('/api/auth'))).toHaveLength(0);
  });

  it('clears the errors on a tab switch, keeps what was typed and changes the route', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/signin?next=%2Fmusic');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(currentPath(router)).toBe('/signup?next=%2Fmusic');
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('ada');
    expect(document.title).toBe('Sign Up · Encore');

    await user.click(screen.getByLabelText('Email'));
    await user.tab();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    expect(currentPath(router)).toBe('/signin?next=%2Fmusic');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the strength label under the sign-up password', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'abcdefgh');
    expect(screen.getByText('Password strength: Weak')).toBeInTheDocument();
    await user.type(password, 'A1');
    expect(screen.getByText('Password strength: Good')).toBeInTheDocument();
    await user.type(password, '!');
    expect(screen.getByText('Password strength: Strong')).toBeInTheDocument();
  });

  it('toggles the password between hidden and shown', async () => {
    const user = userEvent.setup();
    renderApp('/signin');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});

describe('auth screen: submitting', () => {
  function setUpFakeTimers() {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    return userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
  }

  it('waits 1.5 s with a spinner, signs in, remembers the session and goes to /', async () => {
    const user = setUpFakeTimers();
    const { requests } = stubFetch({
      'POST /api/auth/signin': { body: { token: 'tok-1', user: { userName: 'ada', email: 'ada@example.com' } } },
    });
    const { router } = renderApp('/signin');
    await user.type(screen.getByLabelText('Username'), ' ada ');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(1400));
    expect(requests.some((request) => request.path === '/api/auth/signin')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(100));

    await waitFor(() => expect(currentPath(router)).toBe('/'));
    expect(await screen.findByText('You have successfully connected.')).toBeInTheDocument();
    const signIn = requests.find((request) => request.path === '/api/auth/signin');
    expect(signIn?.body).toEqual({ userName: 'ada', password: 'secret-pass', rememberMe: true });
    expect(localStorage.getItem('token')).toBe('tok-1');
    expect(localStorage.getItem('userName')).toBe('ada');
    expect(localStorage.getItem('email')).toBe('ada@example.com');
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: true, userName: 'ada' });
  });

  it('keeps the token for the tab only without Remember me, and honours ?next=', async () => {
    const user = setUpFakeTimers();
    const { requests } = stubFetch({
      'POST /api/auth/signin': { body: { token: 'tok-2', user: { userName: 'ada', email: 'ada@example.com' } } },
    });
    const { router } = renderApp('/signin?next=%2Fplaylists%3Fsort%3Dname');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));

    await waitFor(() => expect(currentPath(router)).toBe('/playlists?sort=name'));
    expect(requests.find((request) => request.path === '/api/auth/signin')?.body).toMatchObject({ rememberMe: false });
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBe('tok-2');
  });

  it('says the credentials are wrong on a 401', async () => {
    const user = setUpFakeTimers();
    stubFetch({ 'POST /api/auth/signin': { status: 401, body: { message: 'Wrong username or password.' } } });
    const { router } = renderApp('/signin');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'nope-nope');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));

    expect(await screen.findByText('Wrong username or password!')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/signin');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(sessionStore.getState().isLoggedIn).toBe(false);
  });

  it("shows the server's message on a 429 and the generic one otherwise", async () => {
    const user = setUpFakeTimers();
    let status = 429;
    stubFetch({
      'POST /api/auth/signin': () => ({ status, body: { message: status === 429 ? 'Too many attempts, try later.' : 'boom' } }),
    });
    renderApp('/signin');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText('Too many attempts, try later.')).toBeInTheDocument();

    status = 500;
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText('An error occurred while signing in!')).toBeInTheDocument();
  });

  it('signs up without signing in, toasts the server message and goes to /', async () => {
    const user = setUpFakeTimers();
    const { requests } = stubFetch({
      'POST /api/auth/signup': {
        status: 201,
        body: { message: 'User registered successfully', user: { userName: 'ada', email: 'ada@example.com' } },
      },
    });
    const { router } = renderApp('/signup');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));

    await waitFor(() => expect(currentPath(router)).toBe('/'));
    expect(await screen.findByText('User registered successfully')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/auth/signup')?.body).toEqual({
      userName: 'ada',
      email: 'ada@example.com',
      password: 'Secret-pass1',
    });
    expect(sessionStore.getState().isLoggedIn).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("shows the server's message when sign-up is refused", async () => {
    const user = setUpFakeTimers();
    stubFetch({ 'POST /api/auth/signup': { status: 409, body: { message: 'That user name is taken.' } } });
    const { router } = renderApp('/signup');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText('That user name is taken.')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/signup');
  });
});
