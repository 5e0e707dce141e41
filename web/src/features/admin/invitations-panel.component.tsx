import type { Invitation } from '@encore/common/admin.contract';
import { checkEmail } from '@encore/common/auth.rules';
import { Mail, Send, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { cn } from '../../lib/cn';
import { formatShortDate } from '../../lib/short-date.format';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { AdminSection, SectionState } from './admin-section.component';
import { useAdminSettings, useInvitationActions, useInvitations } from './admin.queries';

const STATE_KEYS = {
  pending: 'adminInvitationPending',
  used: 'adminInvitationUsed',
  revoked: 'adminInvitationRevoked',
  expired: 'adminInvitationExpired',
} as const;

/** Invite by e-mail (single use, 7 days) and the invitations sent, pending ones revocable. */
export function InvitationsPanel() {
  const t = useT();
  const invitations = useInvitations();
  const closed = useAdminSettings().data?.signUp.mode === 'closed';
  const { invite } = useInvitationActions();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const rule = checkEmail(email.trim());
    if (!email.trim() || rule) {
      setError(t(rule ?? 'emailRequired'));
      return;
    }
    setError(null);
    invite.mutate(email.trim(), { onSuccess: () => setEmail('') });
  };

  return (
    <AdminSection id="admin-invitations" icon={<Mail aria-hidden />} title={t('adminInviteHeading')}>
      <p className="text-sm text-muted">{t('adminInviteBody')}</p>
      {closed ? <p className="rounded-xl bg-amber-400/10 px-3 py-2 text-sm text-amber-200">{t('adminInviteClosedNote')}</p> : null}
      <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          id="admin-invite-email"
          label={t('adminInviteEmail')}
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder={t('adminInvitePlaceholder')}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
          className="flex-1"
        />
        <Button type="submit" disabled={invite.isPending} className="sm:mt-7">
          {invite.isPending ? <Spinner /> : <Send aria-hidden className="size-4" />}
          {t('adminInviteSend')}
        </Button>
      </form>
      {invitations.isPending ? null : invitations.isError ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : invitations.data.invitations.length === 0 ? (
        <SectionState>{t('adminInvitationsEmpty')}</SectionState>
      ) : (
        <ul className="flex flex-col divide-y divide-border">
          {invitations.data.invitations.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      )}
    </AdminSection>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const t = useT();
  const language = useLanguage();
  const { revoke } = useInvitationActions();
  const detail =
    invitation.state === 'used' && invitation.usedBy
      ? t('adminInvitationUsedBy', { name: invitation.usedBy })
      : invitation.state === 'pending'
        ? t('adminInvitationExpires', { date: formatShortDate(invitation.expiresAt, language) })
        : null;
  return (
    <li data-testid="admin-invitation" className="flex items-center justify-between gap-3 py-2.5 text-sm">
      <span className="flex min-w-0 flex-col">
        <bdi className="truncate font-medium">{invitation.email}</bdi>
        <span className="text-xs text-muted">
          <span className={cn(invitation.state === 'pending' ? 'text-fuchsia-200' : invitation.state === 'used' ? 'text-emerald-300' : 'text-muted')}>
            {t(STATE_KEYS[invitation.state])}
          </span>
          {detail ? <> · {detail}</> : null}
        </span>
      </span>
      {invitation.state === 'pending' ? (
        <Button variant="ghost" size="sm" aria-label={t('adminRevokeLabel', { email: invitation.email })} onClick={() => revoke.mutate(invitation.id)}>
          <X aria-hidden className="size-4" />
          {t('adminRevoke')}
        </Button>
      ) : null}
    </li>
  );
}
