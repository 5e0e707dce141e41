/**
 * Where to go after signing in. A guest stopped by the login guard is sent to
 * `/signin?next=<where they were going>`; the value is only trusted when it is a path on this
 * site (never another origin) and not an auth page itself.
 */
export const NEXT_PARAM = 'next';

const AUTH_PATHS = new Set(['/signin', '/signup']);

export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const pathname = raw.split(/[?#]/, 1)[0] ?? '';
  return AUTH_PATHS.has(pathname) ? '/' : raw;
}

/** The destination carried by an auth page's query string, or / when there is none. */
export function nextFromSearch(search: string): string {
  return safeNextPath(new URLSearchParams(search).get(NEXT_PARAM));
}

/** The sign-in address that brings the user back to `location` afterwards. */
export function signInPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  const target = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  const next = safeNextPath(target);
  return next === '/' ? '/signin' : `/signin?${NEXT_PARAM}=${encodeURIComponent(next)}`;
}
