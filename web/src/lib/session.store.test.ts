import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { sessionStore } from './session.store';

beforeEach(() => {
  sessionStore.reset();
});

describe('session store', () => {
  it('auto login: a stored token fetches the profile and signs in', async () => {
    localStorage.setItem('token', 'stored');
    const { requests } = stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: true } } });
    const pending = sessionStore.restore();
    expect(sessionStore.getState()).toMatchObject({ restoring: true, isLoggedIn: false });
    await pending;
    expect(sessionStore.getState()).toMatchObject({
      restoring: false,
      isLoggedIn: true,
      userName: 'ada',
      email: 'ada@example.com',
      loading: false,
    });
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer stored');
    expect(localStorage.getItem('userName')).toBe('ada');
  });

  it('auto login failure removes the stored entries and only logs', async () => {
    localStorage.setItem('token', 'expired');
    localStorage.setItem('userName', 'ada');
    localStorage.setItem('email', 'ada@example.com');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({ 'GET /api/auth/profile': { status: 401, body: { message: 'Not signed in' } } });
    await sessionStore.restore();
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: false, restoring: false, userName: null });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('userName')).toBeNull();
    expect(localStorage.getItem('email')).toBeNull();
    expect(logged).toHaveBeenCalledWith('Auto login failed', expect.anything());
  });

  it('without a stored token, auto login does nothing', async () => {
    const { requests } = stubFetch({});
    await sessionStore.restore();
    expect(requests).toHaveLength(0);
    expect(sessionStore.getState().restoring).toBe(false);
  });

  it('log out clears the three entries and the state', async () => {
    stubFetch({ 'POST /api/auth/signin': { body: { token: 'tok', user: { userName: 'ada', email: 'a@b.co' } } } });
    await sessionStore.signIn({ userName: 'ada', password: 'pw', rememberMe: true });
    expect(localStorage.getItem('token')).toBe('tok');
    sessionStore.logOut();
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: false, userName: null, email: null });
    expect(['token', 'userName', 'email'].map((key) => localStorage.getItem(key))).toEqual([null, null, null]);
  });

  it('an auto login answer arriving after log out is ignored', async () => {
    localStorage.setItem('token', 'stored');
    let answer: (value: Response) => void = () => {};
    const fetched = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetched);
    const pending = sessionStore.restore();
    // The auth calls load on first use: the profile request goes out a moment later.
    await vi.waitFor(() => expect(fetched).toHaveBeenCalled());
    sessionStore.logOut();
    answer(new Response(JSON.stringify({ userName: 'ada', email: 'a@b.co' }), { status: 200 }));
    await pending;
    expect(sessionStore.getState().isLoggedIn).toBe(false);
  });

  it('sign-up does not sign in and rejects a missing e-mail before sending', async () => {
    const { requests } = stubFetch({
      'POST /api/auth/signup': { status: 201, body: { message: 'ok', user: { userName: 'ada', email: 'a@b.co' } } },
    });
    await expect(sessionStore.signUp({ userName: 'ada', email: ' ', password: 'long-enough' })).rejects.toThrow('Email is required for signing up.');
    expect(requests).toHaveLength(0);
    await sessionStore.signUp({ userName: 'ada', email: 'a@b.co', password: 'long-enough' });
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: false, error: null });
  });

  it('the /signin watcher follows the stored token', () => {
    sessionStore.syncWithStoredToken();
    expect(sessionStore.getState().isLoggedIn).toBe(false);
    sessionStorage.setItem('token', 'tab-token');
    sessionStorage.setItem('userName', 'ada');
    sessionStore.syncWithStoredToken();
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: true, userName: 'ada' });
    sessionStorage.clear();
    sessionStore.syncWithStoredToken();
    expect(sessionStore.getState().isLoggedIn).toBe(false);
  });

  it('the profile fetch updates the user and a failure is only logged', async () => {
    localStorage.setItem('token', 'tok');
    sessionStore.syncWithStoredToken();
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'Ada L', email: 'ada@example.com', emailVerified: true } } });
    await sessionStore.refreshProfile();
    expect(sessionStore.getState()).toMatchObject({ userName: 'Ada L', loading: false });

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({ 'GET /api/auth/profile': { status: 500 } });
    await sessionStore.refreshProfile();
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: true, userName: 'Ada L', loading: false });
    expect(logged).toHaveBeenCalled();
  });

  it('updates the profile through PUT and keeps storage in step', async () => {
    localStorage.setItem('token', 'tok');
    sessionStore.syncWithStoredToken();
    const { requests } = stubFetch({ 'PUT /api/auth/profile': { body: { userName: 'ada2', email: 'n@b.co', emailVerified: false } } });
    await sessionStore.updateProfile({ email: 'n@b.co' });
    expect(requests[0]?.body).toEqual({ email: 'n@b.co' });
    expect(localStorage.getItem('email')).toBe('n@b.co');
    expect(sessionStore.getState().userName).toBe('ada2');
    // A new address is unverified until its link is opened.
    expect(sessionStore.getState().emailVerified).toBe(false);
  });
});
