import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { nextFromSearch, signInPathFor } from '../features/auth/auth-redirect';
import { sessionStore, useSession } from '../lib/session.store';
import { NotFoundPage } from '../features/not-found/not-found.page';
import { useT } from '../lib/i18n/i18n.store';

interface GuardProps {
  /** Rendered when allowed; without it the guard renders the child routes (layout route). */
  children?: ReactNode;
}

/** Shown while auto login checks a stored token, so nobody is redirected too early. */
export function SessionPending() {
  const t = useT();
  return (
    <div className="grid min-h-[60dvh] place-items-center px-4">
      <p role="status" className="flex items-center gap-3 text-sm text-muted">
        <Spinner className="size-5 text-accent" />
        {t('checkingSession')}
      </p>
    </div>
  );
}

/** Login required: guests go to /signin and come back here after signing in. */
export function RequireAuth({ children }: GuardProps) {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const restoring = useSession((state) => state.restoring);
  const location = useLocation();
  if (restoring) return <SessionPending />;
  if (!isLoggedIn) return <Navigate to={signInPathFor(location)} replace />;
  return children ?? <Outlet />;
}

/** Visitors only (/signin, /signup): a signed-in user goes to / (or the pending ?next= target). */
export function GuestOnly({ children }: GuardProps) {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const restoring = useSession((state) => state.restoring);
  const location = useLocation();
  if (restoring) return <SessionPending />;
  if (isLoggedIn) return <Navigate to={nextFromSearch(location.search)} replace />;
  return children ?? <Outlet />;
}

/**
 * Admins only (/admin): anyone else, signed in or not, gets the Not Found page, as every admin
 * call answers them 404. The role comes with the profile, fetched here if not yet known.
 */
export function RequireAdmin({ children }: GuardProps) {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const restoring = useSession((state) => state.restoring);
  const role = useSession((state) => state.role);
  const [checked, setChecked] = useState(false);
  const unknown = isLoggedIn && !restoring && role === null && !checked;
  useEffect(() => {
    if (unknown) void sessionStore.refreshProfile().finally(() => setChecked(true));
  }, [unknown]);
  if (restoring || unknown) return <SessionPending />;
  if (role !== 'admin') return <NotFoundPage />;
  return children ?? <Outlet />;
}

/** A route whose parameter must be a positive whole number (/music/:id, SPEC 2); anything else is Not Found. */
export function NumericParam({ name, element }: { name: string; element: ReactNode }) {
  const value = useParams()[name] ?? '';
  return /^[1-9]\d{0,15}$/.test(value) ? element : <NotFoundPage />;
}
