import { LogOut, Music, Upload, UserRound, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, AvatarFallback } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../components/ui/dialog';
import { Spinner } from '../components/ui/spinner';
import { EmailVerificationNotice, EmailVerifiedBadge } from '../features/auth/email-verification.component';
import { sessionStore, useSession } from '../lib/session.store';
import type { MessageKey } from '../lib/i18n/catalogue';
import { useT } from '../lib/i18n/i18n.store';
import { LanguageSwitch } from '../components/language-switch';
import { useLogOut } from './log-out';
import { userInitials } from '../lib/user-initials';

interface ProfileDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const ACTIONS: readonly { to: string; label: MessageKey; icon: LucideIcon }[] = [
  { to: '/profile', label: 'profileViewProfile', icon: UserRound },
  { to: '/my-music', label: 'profileMyMusic', icon: Music },
  { to: '/upload', label: 'profileUploadMusic', icon: Upload },
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
            <AvatarFallback className="text-xl">{userInitials(userName) || <UserRound aria-hidden className="size-7" />}</AvatarFallback>
          </Avatar>
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="truncate text-lg font-semibold">{userName}</p>
            <p className="truncate text-sm text-muted">{email}</p>
            <EmailVerifiedBadge />
            {loading ? (
              <p role="status" className="mt-1 flex items-center gap-1.5 text-xs text-subtle">
                <Spinner className="size-3.5" />
                {t('profileLoading')}
              </p>
            ) : null}
          </div>
        </div>

        <EmailVerificationNotice />

        <div className="mt-4 grid gap-2">
          {ACTIONS.map(({ to, label, icon: Icon }) => (
            <Button key={to} variant="secondary" className="justify-start" onClick={() => go(to)}>
              <Icon aria-hidden className="size-4 text-fuchsia-300" />
              {t(label)}
            </Button>
          ))}
        </div>

        <LanguageSwitch className="mt-4" />

        <Button variant="danger" className="mt-4 w-full" onClick={logOut}>
          <LogOut aria-hidden className="size-4 rtl:rotate-180" />
          {t('logOut')}
        </Button>
      </DialogContent>
    </Dialog>
  );
}
