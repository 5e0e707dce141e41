import { useLayoutEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { sessionStore } from '../lib/session.store';

/** Marks the navigation to / that a Log Out makes; the session is cleared once it has landed. */
const LOGGING_OUT = 'encoreLoggingOut';

function isLoggingOut(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[LOGGING_OUT] === true;
}

/**
 * Log Out (SPEC 2): clears the session and goes to /. Leave first, then clear: cleared while a
 * protected page is still on screen, the session would send its guard to /signin?next=... before
 * the navigation lands (a router update runs as a transition, a store update does not wait).
 */
export function useLogOut(): () => void {
  const navigate = useNavigate();
  return () => void navigate('/', { state: { [LOGGING_OUT]: true } });
}

/**
 * In the layout: once / is committed after a Log Out, clear the session (and forget the mark).
 * A layout effect, so the token is gone before the landing page is painted: a passive effect
 * may run a task later, leaving a moment where / shows with the session still stored.
 */
export function useFinishLogOut(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    if (!isLoggingOut(location.state)) return;
    sessionStore.logOut();
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location, navigate]);
}
