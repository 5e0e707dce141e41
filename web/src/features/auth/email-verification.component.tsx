import { authMessagesEn } from '@encore/common/messages.en';
import { BadgeCheck, MailWarning, Send } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { postResendVerification } from './auth.api';
import { sessionStore, useSession } from '../../lib/session.store';

/** A small "Verified" mark under the e-mail of a verified account; nothing otherwise. */
export function EmailVerifiedBadge() {
  const t = useT();
  const verified = useSession((state) => state.emailVerified);
  if (verified !== true) return null;
  return (
    <p className="mt-1 flex items-center gap-1.5 text-xs font-medium text-success">
      <BadgeCheck aria-hidden className="size-4" />
      {t('emailVerifiedBadge')}
    </p>
  );
}

/**
 * "Not verified", why it matters, and "Resend verification e-mail", for an account whose
 * e-mail is not verified. Nothing until the profile has said, or once it is verified.
 */
export function EmailVerificationNotice() {
  const t = useT();
  const verified = useSession((state) => state.emailVerified);
  const email = useSession((state) => state.email);
  const resend = useMutation({
    mutationFn: postResendVerification,
    meta: { errorToast: { fallback: t('resendVerificationFailed') } },
    onSuccess: (answer) => {
      if (answer.message === authMessagesEn.emailAlreadyVerified) {
        toast.success(t('emailAlreadyVerified'));
        void sessionStore.refreshProfile();
      } else {
        toast.success(t('verificationSent', { email: email ?? '' }));
      }
    },
  });
  const sending = resend.isPending;

  if (verified !== false) return null;
  return (
    <div className="mt-4 flex flex-col gap-2 rounded-xl border border-amber-400/30 bg-amber-400/5 p-3">
      <p className="flex items-center gap-1.5 text-sm font-medium text-amber-200">
        <MailWarning aria-hidden className="size-4" />
        {t('emailUnverifiedBadge')}
      </p>
      <p className="text-xs leading-relaxed text-muted">{t('emailUnverifiedHint')}</p>
      <Button variant="secondary" size="sm" className="self-start" disabled={sending} onClick={() => resend.mutate()}>
        {sending ? <Spinner className="size-4" /> : <Send aria-hidden className="size-4" />}
        {t('resendVerification')}
      </Button>
    </div>
  );
}
