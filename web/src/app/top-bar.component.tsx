import { TOP_BAR_SCROLL_THRESHOLD_PX } from '@encore/common/constants';
import { Suspense, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { LogoMark } from '../components/logo-mark';
import { Button } from '../components/ui/button';
import { useSession } from '../lib/session.store';
import { cn } from '../lib/cn';
import { lazyComponent } from '../lib/lazy-component';
import { useT } from '../lib/i18n/i18n.store';

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

/**
 * The signed-in menus (popovers, the profile dialog) arrive after sign-in, not with the
 * landing page a visitor opens (bench/web/landing-weight.bench.ts).
 */
const SignedInNav = lazyComponent(async () => (await import('./signed-in-nav.component')).SignedInNav);

/** The fixed top bar of every page (SPEC 2). */
export function TopBar() {
  const t = useT();
  const scrolled = useScrolledPast(TOP_BAR_SCROLL_THRESHOLD_PX);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  // While auto login checks a stored token, show neither menu rather than flash the wrong one.
  const restoring = useSession((state) => state.restoring);
  // On the auth screen itself, 'Get Started' would lead to the page the visitor is on.
  const { pathname } = useLocation();
  const onAuthScreen = pathname === '/signin' || pathname === '/signup';

  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        'fixed inset-x-0 top-0 z-40 border-b transition-[background-color,border-color,backdrop-filter] duration-300',
        scrolled ? 'border-border/70 bg-background/70 shadow-lg shadow-black/20 backdrop-blur-xl' : 'border-transparent bg-transparent',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link to="/" aria-label={t('homeLinkLabel')} className="flex items-center gap-2.5 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <LogoMark />
          <span className="text-xl font-extrabold tracking-tight">{t('brand')}</span>
        </Link>
        {restoring ? (
          <span aria-hidden className="size-9 animate-pulse rounded-full bg-white/5" />
        ) : isLoggedIn ? (
          <Suspense fallback={<span aria-hidden className="size-9 animate-pulse rounded-full bg-white/5" />}>
            <SignedInNav />
          </Suspense>
        ) : onAuthScreen ? null : (
          <Button asChild size="sm" className="rounded-full px-5">
            <Link to="/signin">{t('navGetStarted')}</Link>
          </Button>
        )}
      </div>
    </header>
  );
}
