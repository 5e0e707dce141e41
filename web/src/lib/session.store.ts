import type { ChangePasswordBody, PublicUser, SignUpResponse, UpdateProfileBody } from '@encore/common/auth.contract';
import { ApiError } from './api-client';
import { createStore, useStore } from './create-store';
import { translate } from './i18n/i18n.store';
import { clearStoredSession, readStoredSession, replaceStoredToken, updateStoredUser, writeStoredSession } from './session-storage';

/** The session calls (and the zod contracts they check answers with) load on first use, not with the landing page. */
const sessionApi = () => import('./session.api');

/** The user slice of SPEC 3, plus `restoring` while a stored token is being checked. */
export interface SessionState {
  userName: string | null;
  email: string | null;
  /** Whether the server has verified the e-mail address; null until the profile says. */
  emailVerified: boolean | null;
  /** 'admin' runs the instance (the /admin page); null until the profile says. */
  role: 'admin' | 'user' | null;
  isLoggedIn: boolean;
  /** A session call (sign-in, sign-up, profile fetch) is in flight. */
  loading: boolean;
  error: string | null;
  /** Auto login is checking a stored token; guards wait instead of redirecting. */
  restoring: boolean;
}

export interface SignInInput {
  userName: string;
  password: string;
  rememberMe: boolean;
}

export interface SignUpInput {
  userName: string;
  email: string;
  password: string;
  /** The token of an invitation link. */
  invitation?: string | undefined;
}

const loggedOut: SessionState = {
  userName: null,
  email: null,
  emailVerified: null,
  role: null,
  isLoggedIn: false,
  loading: false,
  error: null,
  restoring: false,
};

const store = createStore<SessionState>({ ...loggedOut, restoring: readStoredSession() !== null });

/**
 * Bumped whenever the session changes hands (sign-in, log out), so an answer to a request
 * sent for an earlier session cannot overwrite the current one.
 */
let generation = 0;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function signedIn(user: PublicUser & { emailVerified?: boolean; role?: 'admin' | 'user' }): Partial<SessionState> {
  const emailVerified = user.emailVerified ?? null;
  return {
    userName: user.userName,
    email: user.email,
    emailVerified,
    ...(user.role ? { role: user.role } : {}),
    isLoggedIn: true,
    loading: false,
    error: null,
    restoring: false,
  };
}

async function startSession(request: Promise<{ token: string; user: PublicUser }>, remember: boolean) {
  const mine = ++generation;
  store.setState({ loading: true, error: null });
  try {
    const { token, user } = await request;
    if (mine !== generation) return user;
    writeStoredSession({ token, userName: user.userName, email: user.email }, remember);
    store.setState(signedIn(user));
    // A sign-in answers with the name and e-mail only: the role (the admin link) comes with the profile.
    void sessionStore.refreshProfile();
    return user;
  } catch (error) {
    if (mine === generation) store.setState({ loading: false, error: errorText(error) });
    throw error;
  }
}

export const sessionStore = {
  getState: store.getState,
  subscribe: store.subscribe,

  /** Signs in; "Remember me" decides whether the token outlives the tab. Throws ApiError. */
  signIn({ userName, password, rememberMe }: SignInInput): Promise<PublicUser> {
    return startSession(
      sessionApi().then((api) => api.postSignIn({ userName, password, rememberMe })),
      rememberMe,
    );
  },

  /** Signs in with a Google ID token credential. Throws ApiError. */
  googleLogin(credential: string, remember = true): Promise<PublicUser> {
    return startSession(
      sessionApi().then((api) => api.postGoogleLogin(credential)),
      remember,
    );
  },

  /**
   * Signs in with the answer of a single sign-on (an OpenID Connect callback, a trusted proxy's
   * header); the answer says whether the session was asked to be remembered. Throws ApiError.
   */
  async signInWith(request: Promise<{ token: string; user: PublicUser; rememberMe?: boolean }>): Promise<PublicUser> {
    const answer = await request;
    return startSession(Promise.resolve(answer), answer.rememberMe ?? true);
  },

  /** Creates an account (with an invitation link's token under SIGNUP=invite). Does not sign in (SPEC 4): it only clears the error. Throws ApiError. */
  async signUp({ userName, email, password, invitation }: SignUpInput): Promise<SignUpResponse> {
    if (!email.trim()) {
      // The handler's own guard (SPEC 5), raised like a server rejection so callers treat it alike.
      const message = translate('signupEmailRequired');
      store.setState({ error: message });
      throw new ApiError(400, message, message);
    }
    store.setState({ loading: true, error: null });
    try {
      const response = await (await sessionApi()).postSignUp({ userName, email, password, ...(invitation ? { invitation } : {}) });
      store.setState({ loading: false, error: null });
      return response;
    } catch (error) {
      store.setState({ loading: false, error: errorText(error) });
      throw error;
    }
  },

  /**
   * Auto login at start-up: a stored token triggers a profile fetch. A failure removes the
   * stored token, name and e-mail and marks the user logged out; it is only logged.
   */
  async restore(): Promise<void> {
    const stored = readStoredSession();
    if (!stored) {
      store.setState({ restoring: false });
      return;
    }
    const mine = ++generation;
    store.setState({ restoring: true, loading: true, userName: stored.userName, email: stored.email });
    try {
      const user = await (await sessionApi()).getProfile();
      if (mine !== generation) return;
      updateStoredUser(user);
      store.setState(signedIn(user));
    } catch (error) {
      if (mine !== generation) return;
      console.error('Auto login failed', error); // auth.api's AUTO_LOGIN_FAILED, without waiting for it;
      clearStoredSession();
      store.setState({ ...loggedOut });
    }
  },

  /** Fetches the profile again (the profile dialog does on opening). A failure is only logged. */
  async refreshProfile(): Promise<void> {
    const mine = generation;
    store.setState({ loading: true });
    try {
      const user = await (await sessionApi()).getProfile();
      if (mine !== generation) return;
      updateStoredUser(user);
      store.setState(signedIn(user));
    } catch (error) {
      console.error('Profile fetch failed', error);
      if (mine === generation) store.setState({ loading: false });
    }
  },

  /** Changes the user name and/or e-mail. Throws ApiError. */
  async updateProfile(body: UpdateProfileBody): Promise<PublicUser> {
    store.setState({ loading: true, error: null });
    try {
      const user = await (await sessionApi()).putProfile(body);
      updateStoredUser(user);
      store.setState(signedIn(user));
      return user;
    } catch (error) {
      store.setState({ loading: false, error: errorText(error) });
      throw error;
    }
  },

  /**
   * Changes the password. The server ends every other session and answers with a new token
   * for this one, which replaces the old token where it is kept. Throws ApiError.
   */
  async changePassword(body: ChangePasswordBody): Promise<void> {
    const mine = generation;
    const { token, user } = await (await sessionApi()).putPassword(body);
    if (mine !== generation) return; // logged out meanwhile: nothing to keep
    replaceStoredToken(token);
    updateStoredUser(user);
    store.setState({ userName: user.userName, email: user.email });
  },

  /** Clears the three stored entries and resets the state. Navigation is the caller's. */
  logOut(): void {
    generation += 1;
    clearStoredSession();
    store.setState({ ...loggedOut });
  },

  /** The /signin watcher of SPEC 2: a stored token means logged in, none means logged out. */
  syncWithStoredToken(): void {
    const state = store.getState();
    if (state.restoring) return; // auto login will decide
    const stored = readStoredSession();
    if (stored && !state.isLoggedIn) {
      store.setState({ isLoggedIn: true, userName: stored.userName, email: stored.email, error: null });
    } else if (!stored && state.isLoggedIn) {
      generation += 1;
      store.setState({ ...loggedOut });
    }
  },

  /** Back to the state of a fresh page load with empty storage (tests). */
  reset(): void {
    generation += 1;
    store.setState({ ...loggedOut });
  },
};

export function useSession<S>(selector: (state: SessionState) => S): S {
  return useStore(store, selector);
}
