import { EMAIL_STORAGE_KEY, TOKEN_STORAGE_KEY, USERNAME_STORAGE_KEY } from '@encore/common/constants';

/**
 * Where the session token, user name and e-mail are kept. "Remember me" keeps them in
 * localStorage (SPEC 3); without it they live in sessionStorage and end with the tab.
 */
export interface StoredSession {
  token: string;
  userName: string | null;
  email: string | null;
}

const KEYS = [TOKEN_STORAGE_KEY, USERNAME_STORAGE_KEY, EMAIL_STORAGE_KEY] as const;

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return globalThis[kind] ?? null;
  } catch {
    return null; // storage blocked by the browser: nothing can be remembered there
  }
}

function stores(): Storage[] {
  return [storage('localStorage'), storage('sessionStorage')].filter((store) => store !== null);
}

/** The store holding the token right now: localStorage first, then sessionStorage. */
function activeStore(): Storage | null {
  return stores().find((store) => store.getItem(TOKEN_STORAGE_KEY)) ?? null;
}

export function readStoredSession(): StoredSession | null {
  const store = activeStore();
  const token = store?.getItem(TOKEN_STORAGE_KEY);
  if (!store || !token) return null;
  return {
    token,
    userName: store.getItem(USERNAME_STORAGE_KEY),
    email: store.getItem(EMAIL_STORAGE_KEY),
  };
}

export function readStoredToken(): string | null {
  return readStoredSession()?.token ?? null;
}

export function writeStoredSession(session: StoredSession, remember: boolean): void {
  clearStoredSession();
  const store = remember ? storage('localStorage') : (storage('sessionStorage') ?? storage('localStorage'));
  if (!store) return;
  store.setItem(TOKEN_STORAGE_KEY, session.token);
  if (session.userName !== null) store.setItem(USERNAME_STORAGE_KEY, session.userName);
  if (session.email !== null) store.setItem(EMAIL_STORAGE_KEY, session.email);
}

/** Swaps the token for a new one in the store that holds it now, so "remember me" is kept. */
export function replaceStoredToken(token: string): void {
  activeStore()?.setItem(TOKEN_STORAGE_KEY, token);
}

/** Refreshes the remembered name and e-mail next to the token, wherever it is kept. */
export function updateStoredUser(user: { userName: string; email: string }): void {
  const store = activeStore();
  if (!store) return;
  store.setItem(USERNAME_STORAGE_KEY, user.userName);
  store.setItem(EMAIL_STORAGE_KEY, user.email);
}

export function clearStoredSession(): void {
  for (const store of stores()) for (const key of KEYS) store.removeItem(key);
}
