import { Menu, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Avatar, AvatarFallback } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { useSession } from '../lib/session.store';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { userInitials } from '../lib/user-initials';
import { ADMIN_LINK, LIBRARY_LINKS, MAIN_LINKS } from './library-links';
import { LibraryMenu } from './library-menu.component';
import { ProfileDialog } from './profile-dialog.component';

const navItemClass =
  'inline-flex h-9 cursor-pointer items-center gap-1 rounded-full px-3.5 text-sm font-medium text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-white/5 data-[state=open]:text-foreground';

/** The top bar's menus for a signed-in user: main links, Library dropdown, phone menu, profile. */
export function SignedInNav() {
  const t = useT();
  const userName = useSession((state) => state.userName);
  const isAdmin = useSession((state) => state.role === 'admin');
  const mainLinks = isAdmin ? [...MAIN_LINKS, ADMIN_LINK] : MAIN_LINKS;
  const [profileOpen, setProfileOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const initials = userInitials(userName);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="flex items-center gap-1 sm:gap-2">
      <nav aria-label={t('mainNavigation')} className="hidden items-center gap-1 md:flex">
        {mainLinks.map((link) => (
          <NavLink key={link.to} to={link.to} end className={({ isActive }) => cn(navItemClass, isActive && 'bg-white/5 text-foreground')}>
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
            {[...mainLinks, ...LIBRARY_LINKS].map((link, index) => {
              const current = link.to === here;
              return (
                <Link
                  key={link.to}
                  to={link.to}
                  aria-current={current ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                  className={cn(
                    'rounded-lg px-3 py-2.5 text-sm font-medium text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:bg-white/5 focus-visible:text-foreground',
                    index === mainLinks.length && 'mt-1 border-t border-border pt-3',
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
          <AvatarFallback className="text-xs">{initials || <UserRound aria-hidden className="size-4" />}</AvatarFallback>
        </Avatar>
      </button>
      <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
    </div>
  );
}
