import { KeyRound, Mail, MonitorSmartphone, UserRound } from 'lucide-react';
import { checkResetPassword, type RuleResult } from '@encore/common/auth.rules';
import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { LanguageSwitch } from '../../components/language-switch';
import { PageGlow } from '../../components/page-glow';
import { Avatar, AvatarFallback } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError } from '../../components/ui/field-error';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { userInitials } from '../../lib/user-initials';
import { AppsSection } from './app-credentials.component';
import { DeleteAccountSection } from './delete-account.component';
import { postForgotPassword } from './auth.api';
import { EmailVerificationNotice, EmailVerifiedBadge } from './email-verification.component';
import { PasswordStrength } from './password-strength.component';
import { sessionStore, useSession } from '../../lib/session.store';

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col gap-4 p-5 shadow-none sm:p-6">
      <h2 className="flex items-center gap-2 text-base font-bold [&_svg]:size-4.5 [&_svg]:text-fuchsia-300">
        {icon}
        {title}
      </h2>
      {children}
    </Card>
  );
}

/** Sections other features add to the profile page (composed in web/src/pages, so auth imports none of them). */
export interface ProfilePageAddOns {
  /** Scrobbling to ListenBrainz (the listening feature). */
  ListenBrainzSection: ComponentType;
}

/**
 * /profile (DECISIONS): the signed-in user's account: user name and e-mail, changed through
 * `PUT /auth/profile`; the password, with the current one or through the e-mailed link; the app
 * passwords and API keys of Subsonic clients; what other features add; the language.
 */
export function ProfilePage({ addOns }: { addOns?: Partial<ProfilePageAddOns> }) {
  const t = useT();
  useDocumentTitle('profilePageTitle');
  const userName = useSession((state) => state.userName) ?? '';
  const email = useSession((state) => state.email) ?? '';
  return (
    <div className="relative isolate mx-auto w-full max-w-2xl px-4 pt-28 pb-16 sm:px-6">
      <PageGlow className="top-10 h-[320px] max-w-xl" />
      <div className="flex items-center gap-4">
        <Avatar className="size-16">
          <AvatarFallback className="text-xl">{userInitials(userName) || <UserRound aria-hidden className="size-7" />}</AvatarFallback>
        </Avatar>
        <div className="flex min-w-0 flex-col gap-0.5">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('profilePageTitle')}</h1>
          <p className="truncate text-sm text-muted">
            <bdi>{userName}</bdi> · <bdi>{email}</bdi>
          </p>
          <EmailVerifiedBadge />
        </div>
      </div>
      <EmailVerificationNotice />
      <div className="mt-8 flex flex-col gap-5">
        {/* Keyed by the saved values, so the form starts again from them after a save. */}
        <AccountForm key={`${userName}\n${email}`} userName={userName} email={email} />
        <PasswordSection userName={userName} email={email} />
        <Section icon={<MonitorSmartphone aria-hidden />} title={t('profileAppsHeading')}>
          <AppsSection />
        </Section>
        {addOns?.ListenBrainzSection ? <addOns.ListenBrainzSection /> : null}
        <LanguageSwitch className="rounded-2xl bg-surface/70 px-5 py-4 sm:px-6" />
        <DeleteAccountSection />
      </div>
    </div>
  );
}

function AccountForm({ userName, email }: { userName: string; email: string }) {
  const t = useT();
  const [name, setName] = useState(userName);
  const [address, setAddress] = useState(email);
  const changed = name.trim() !== userName || address.trim() !== email;
  const update = useMutation({
    mutationFn: (changes: { userName?: string; email?: string }) => sessionStore.updateProfile(changes),
    meta: { errorToast: { fallback: t('profileUpdateFailed') } },
    onSuccess: () => toast.success(t('profileSaved')),
  });
  const saving = update.isPending;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || saving) return;
    update.mutate({
      ...(name.trim() !== userName ? { userName: name.trim() } : {}),
      ...(address.trim() !== email ? { email: address.trim() } : {}),
    });
  };

  return (
    <Section icon={<UserRound aria-hidden />} title={t('profileAccountHeading')}>
      <form onSubmit={(event) => void save(event)} className="flex flex-col gap-4" noValidate>
        <TextField
          id="profile-username"
          label={t('fieldUsername')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="username"
          required
        />
        <TextField
          id="profile-email"
          label={t('fieldEmail')}
          type="email"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          autoComplete="email"
          required
        />
        <div className="flex flex-wrap justify-end gap-2.5">
          <Button
            type="button"
            variant="ghost"
            disabled={!changed || saving}
            onClick={() => {
              setName(userName);
              setAddress(email);
            }}
          >
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={!changed || saving || !name.trim() || !address.trim()}>
            {saving ? <Spinner /> : null}
            {t('profileSave')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

/**
 * A new password with the current one (`PUT /auth/password`); forgot it, or a Google account
 * with none yet, the e-mailed reset link sets one, so only the mailbox's owner can.
 */
function PasswordSection({ userName, email }: { userName: string; email: string }) {
  const t = useT();
  return (
    <Section icon={<KeyRound aria-hidden />} title={t('profilePasswordHeading')}>
      <p className="text-sm leading-relaxed text-muted">{t('profilePasswordBody')}</p>
      <ChangePasswordForm userName={userName} />
      <div className="flex flex-col gap-3 border-t border-white/10 pt-4">
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">{t('profilePasswordForgot')}</h3>
          <p className="text-sm leading-relaxed text-muted">{t('profilePasswordForgotBody')}</p>
        </div>
        <ResetLinkButton userName={userName} email={email} />
      </div>
    </Section>
  );
}

type PasswordProblem = RuleResult | 'profileCurrentPasswordRequired';

function ChangePasswordForm({ userName }: { userName: string }) {
  const t = useT();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<PasswordProblem>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const invalid = problem !== null || serverError !== null;

  const edit = (set: (value: string) => void) => (event: ChangeEvent<HTMLInputElement>) => {
    set(event.target.value);
    setProblem(null);
    setServerError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found: PasswordProblem = current ? checkResetPassword(password, confirmation) : 'profileCurrentPasswordRequired';
    setProblem(found);
    setServerError(null);
    if (found) return;
    setSaving(true);
    try {
      await sessionStore.changePassword({ currentPassword: current, newPassword: password });
      toast.success(t('profilePasswordChanged'));
      setCurrent('');
      setPassword('');
      setConfirmation('');
    } catch (error) {
      setServerError(toastApiError(error, { fallback: t('profilePasswordChangeFailed') }));
    } finally {
      setSaving(false);
    }
  };

  const shared = {
    showLabel: t('showPassword'),
    hideLabel: t('hidePassword'),
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': invalid ? 'profile-password-error' : undefined,
  } as const;
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate aria-busy={saving}>
      {/* For password managers: the account the new password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
      <PasswordField
        id="profile-current-password"
        label={t('fieldCurrentPassword')}
        name="current-password"
        autoComplete="current-password"
        value={current}
        onChange={edit(setCurrent)}
        {...shared}
      />
      <div className="flex flex-col gap-2">
        <PasswordField
          id="profile-new-password"
          label={t('fieldNewPassword')}
          name="new-password"
          autoComplete="new-password"
          placeholder={t('placeholderNewPassword')}
          value={password}
          onChange={edit(setPassword)}
          {...shared}
        />
        <PasswordStrength password={password} />
      </div>
      <PasswordField
        id="profile-confirm-password"
        label={t('fieldConfirmPassword')}
        name="confirm-password"
        autoComplete="new-password"
        placeholder={t('placeholderConfirmPassword')}
        value={confirmation}
        onChange={edit(setConfirmation)}
        {...shared}
      />
      <FieldError id="profile-password-error">{problem ? t(problem) : serverError}</FieldError>
      <Button type="submit" className="self-end" disabled={saving}>
        {saving ? <Spinner /> : null}
        {t('profilePasswordChange')}
      </Button>
    </form>
  );
}

function ResetLinkButton({ userName, email }: { userName: string; email: string }) {
  const t = useT();
  const request = useMutation({
    mutationFn: () => postForgotPassword({ email, userName }),
    meta: { errorToast: { fallback: t('resetEmailFailed') } },
  });
  const sending = request.isPending;
  const send = () => request.mutate();
  if (request.isSuccess) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-success">
        <Mail aria-hidden className="size-4 shrink-0" />
        {t('profilePasswordSent', { email })}
      </p>
    );
  }
  return (
    <Button variant="secondary" className="self-start" onClick={send} disabled={sending || !email}>
      {sending ? <Spinner /> : <Mail aria-hidden className="size-4" />}
      {t('profilePasswordSend')}
    </Button>
  );
}
