import { TOP_BAR_SCROLL_THRESHOLD_PX } from '@encore/common/constants';
import { Menu, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { LogoMark } from '../components/logo-mark';
import { Avatar, AvatarFallback } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { useSession } from '../features/auth/session.store';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { LIBRARY_LINKS, MAIN_LINKS } from './library-links';
import { LibraryMenu } from './library-menu.component';
import { ProfileDialog } from './profile-dialog.component';
import { userInitials } from '../lib/user-initials';

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

const navItemClass =
  'inline-flex h-9 cursor-pointer items-center gap-1 rounded-full px-3.5 text-sm font-medium text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-white/5 data-[state=open]:text-foreground';

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
        scrolled
          ? 'border-border/70 bg-background/70 shadow-lg shadow-black/20 backdrop-blur-xl'
          : 'border-transparent bg-transparent',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          to="/"
          aria-label={t('homeLinkLabel')}
          className="flex items-center gap-2.5 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <LogoMark />
          <span className="text-xl font-extrabold tracking-tight">{t('brand')}</span>
        </Link>
        {restoring ? (
          <span aria-hidden className="size-9 animate-pulse rounded-full bg-white/5" />
        ) : isLoggedIn ? (
          <SignedInNav />
        ) : onAuthScreen ? null : (
          <Button asChild size="sm" className="rounded-full px-5">
            <Link to="/signin">{t('navGetStarted')}</Link>
          </Button>
        )}
      </div>
    </header>
  );
}

function SignedInNav() {
  const t = useT();
  const userName = useSession((state) => state.userName);
  const [profileOpen, setProfileOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const initials = userInitials(userName);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="flex items-center gap-1 sm:gap-2">
      <nav aria-label={t('mainNavigation')} className="hidden items-center gap-1 md:flex">
        {MAIN_LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            end
            className={({ isActive }) => cn(navItemClass, isActive && 'bg-white/5 text-foreground')}
          >
            {t(link.label)}
          </NavLink>
        ))}
        <LibraryMenu triggerClassName={navItemClass} />
      </nav>

      <Popover open={menuOpen} onOpenChange={setMenuOpen}>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('openMenu')}>
            <Menu aria-hidden className="size-5" />
          </Button>
        </PopoverTrigger>
        {/* Hangs from its button, opaque over the page, with the current page marked. */}
        <PopoverContent align="end" sideOffset={6} className="w-64 origin-top-right bg-surface p-2 backdrop-blur-none rtl:origin-top-left">
          <nav aria-label={t('mainNavigation')} className="flex flex-col gap-0.5">
            {[...MAIN_LINKS, ...LIBRARY_LINKS].map((link, index) => {
              const current = link.to === here;
              return (
                <Link
                  key={link.to}
                  to={link.to}
                  aria-current={current ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                  className={cn(
                    'rounded-lg px-3 py-2.5 text-sm font-medium text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:bg-white/5 focus-visible:text-foreground',
                    index === MAIN_LINKS.length && 'mt-1 border-t border-border pt-3',
                    current && 'bg-accent/15 text-foreground',
                  )}
                >
                  {t(link.label)}
                </Link>
              );
            })}
          </nav>
        </PopoverContent>
      </Popover>

      <button
        type="button"
        aria-label={t('openProfile')}
        aria-haspopup="dialog"
        onClick={() => setProfileOpen(true)}
        className="ms-1 cursor-pointer rounded-full ring-2 ring-transparent transition-shadow outline-none hover:ring-accent/60 focus-visible:ring-ring"
      >
        <Avatar className="size-9">
          <AvatarFallback className="text-xs">
            {initials || <UserRound aria-hidden className="size-4" />}
          </AvatarFallback>
        </Avatar>
      </button>
      <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
    </div>
  );
}
