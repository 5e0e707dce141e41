import { Languages, LogOut, Music, Upload, UserRound, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, AvatarFallback } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../components/ui/dialog';
import { Spinner } from '../components/ui/spinner';
import { sessionStore, useSession } from '../features/auth/session.store';
import { cn } from '../lib/cn';
import type { MessageKey } from '../lib/i18n/en.catalogue';
import { setLanguage, useLanguage, useT, type Language } from '../lib/i18n/i18n.store';
import { useLogOut } from './log-out';
import { userInitials } from './user-initials';

interface ProfileDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const ACTIONS: readonly { to: string; label: MessageKey; icon: LucideIcon }[] = [
  { to: '/profile', label: 'profileViewProfile', icon: UserRound },
  { to: '/my-music', label: 'profileMyMusic', icon: Music },
  { to: '/upload', label: 'profileUploadMusic', icon: Upload },
];

const LANGUAGES: readonly { value: Language; label: MessageKey }[] = [
  { value: 'en', label: 'languageEnglish' },
  { value: 'he', label: 'languageHebrew' },
];

/** 'User Profile' (SPEC 2): who is signed in, shortcuts, language, Log Out. */
export function ProfileDialog({ open, onOpenChange }: ProfileDialogProps) {
  const t = useT();
  const navigate = useNavigate();
  const userName = useSession((state) => state.userName);
  const email = useSession((state) => state.email);
  const loading = useSession((state) => state.loading);

  useEffect(() => {
    if (open) void sessionStore.refreshProfile();
  }, [open]);

  function go(to: string) {
    onOpenChange(false);
    void navigate(to);
  }

  const leave = useLogOut();
  function logOut() {
    onOpenChange(false);
    leave();
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('close')} aria-busy={loading}>
        <DialogHeader>
          <DialogTitle>{t('profileTitle')}</DialogTitle>
          <DialogDescription>{t('profileSubtitle')}</DialogDescription>
        </DialogHeader>

        <div className="mt-5 flex items-center gap-4 rounded-2xl border border-border bg-background/50 p-4">
          <Avatar className="size-16">
            <AvatarFallback className="text-xl">
              {userInitials(userName) || <UserRound aria-hidden className="size-7" />}
            </AvatarFallback>
          </Avatar>
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="truncate text-lg font-semibold">{userName}</p>
            <p className="truncate text-sm text-muted">{email}</p>
            {loading ? (
              <p role="status" className="mt-1 flex items-center gap-1.5 text-xs text-subtle">
                <Spinner className="size-3.5" />
                {t('profileLoading')}
              </p>
            ) : null}
          </div>
        </div>

        <div className="mt-4 grid gap-2">
          {ACTIONS.map(({ to, label, icon: Icon }) => (
            <Button key={to} variant="secondary" className="justify-start" onClick={() => go(to)}>
              <Icon aria-hidden className="size-4 text-fuchsia-300" />
              {t(label)}
            </Button>
          ))}
        </div>

        <LanguageSwitch />

        <Button variant="danger" className="mt-4 w-full" onClick={logOut}>
          <LogOut aria-hidden className="size-4 rtl:rotate-180" />
          {t('logOut')}
        </Button>
      </DialogContent>
    </Dialog>
  );
}

function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  return (
    <div className="mt-4 flex items-center justify-between gap-3 rounded-xl border border-border px-3 py-2.5">
      <span id="language-label" className="flex items-center gap-2 text-sm text-muted">
        <Languages aria-hidden className="size-4" />
        {t('languageLabel')}
      </span>
      <div role="group" aria-labelledby="language-label" className="flex gap-1 rounded-lg bg-background/60 p-1">
        {LANGUAGES.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            lang={value}
            aria-pressed={language === value}
            onClick={() => setLanguage(value)}
            className={cn(
              'h-8 cursor-pointer rounded-md px-3 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
              language === value ? 'bg-accent-gradient text-white' : 'text-muted hover:text-foreground',
            )}
          >
            {t(label)}
          </button>
        ))}
      </div>
    </div>
  );
}
