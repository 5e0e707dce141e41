import { checkResetPassword, type RuleResult } from '@encore/common/auth.rules';
import { RESET_REDIRECT_DELAY_MS } from '@encore/common/constants';
import { CircleAlert, CircleCheck, KeyRound, Link2Off } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError } from '../../components/ui/field-error';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import type { AuthLocationState } from './auth.page';
import { postResetPassword } from './auth.api';
import { PageGlow } from '../../components/page-glow';

/** The password reset page: /reset-password?token=...&email=... from the e-mailed link. */
export function ResetPasswordPage() {
  useDocumentTitle('resetTitle');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  return (
    <div className="relative isolate flex flex-1 items-start justify-center px-4 pt-28 pb-16 sm:items-center sm:pt-32">
      <PageGlow className="top-16 h-[420px] max-w-3xl" />
      <Card className="w-full max-w-[440px] p-5 sm:p-8">{token && email ? <ResetPasswordForm token={token} email={email} /> : <InvalidLink />}</Card>
    </div>
  );
}

function StatusIcon({ tone, children }: { tone: 'accent' | 'success' | 'danger'; children: ReactNode }) {
  const tones = {
    accent: 'bg-accent/10 text-fuchsia-300 ring-accent/30',
    success: 'bg-emerald-400/10 text-success ring-emerald-400/30',
    danger: 'bg-rose-400/10 text-danger ring-rose-400/30',
  } as const;
  return <span className={`grid size-14 place-items-center rounded-2xl ring-1 ${tones[tone]}`}>{children}</span>;
}

function InvalidLink() {
  const t = useT();
  const forgotState: AuthLocationState = { view: 'forgot' };
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <StatusIcon tone="danger">
        <Link2Off aria-hidden className="size-7" />
      </StatusIcon>
      <h1 className="text-2xl font-bold tracking-tight">{t('invalidLinkHeading')}</h1>
      <p className="text-sm leading-relaxed text-muted">{t('invalidLinkBody')}</p>
      <div className="mt-2 flex w-full flex-col gap-3">
        <Button asChild size="lg">
          <Link to="/signin" state={forgotState}>
            {t('requestNewLink')}
          </Link>
        </Button>
        <Button asChild variant="ghost">
          <Link to="/signin">{t('goToSignIn')}</Link>
        </Button>
      </div>
    </div>
  );
}

type Outcome = { kind: 'done' } | { kind: 'failed'; message: string };

function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [ruleError, setRuleError] = useState<RuleResult>(null);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  // Success or failure, the flow ends on /signin after a pause (SPEC 2, 4).
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => void navigate('/signin', { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const problem = checkResetPassword(password, confirmation);
    setRuleError(problem);
    if (problem) return;
    setSubmitting(true);
    try {
      await postResetPassword({ email, token, newPassword: password });
      toast.success(t('resetSuccess'));
      setOutcome({ kind: 'done' });
    } catch (error) {
      setOutcome({ kind: 'failed', message: toastApiError(error, { fallback: t('resetFailed') }) });
    } finally {
      setSubmitting(false);
    }
  }

  if (outcome) {
    const done = outcome.kind === 'done';
    return (
      <div className="flex flex-col items-center gap-4 text-center">
        <StatusIcon tone={done ? 'success' : 'danger'}>
          {done ? <CircleCheck aria-hidden className="size-7" /> : <CircleAlert aria-hidden className="size-7" />}
        </StatusIcon>
        <h1 className="text-2xl font-bold tracking-tight">{done ? t('resetDoneHeading') : t('resetFailedHeading')}</h1>
        <p role={done ? 'status' : 'alert'} className="text-sm leading-relaxed text-muted">
          {done ? t('resetSuccess') : outcome.message}
        </p>
        <p className="flex items-center gap-2 text-xs text-subtle">
          <Spinner className="size-3.5" />
          {t('redirectingToSignIn')}
        </p>
        <Button asChild size="lg" className="mt-2 w-full">
          <Link to="/signin" replace>
            {t('goToSignIn')}
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={submitting}>
      <div className="flex flex-col items-center gap-3 text-center">
        <StatusIcon tone="accent">
          <KeyRound aria-hidden className="size-7" />
        </StatusIcon>
        <h1 className="text-2xl font-bold tracking-tight">{t('resetHeading')}</h1>
        <p className="text-sm break-all text-muted sm:break-normal">{t('resetSubheading', { email })}</p>
      </div>
      <PasswordField
        id="reset-password"
        label={t('fieldNewPassword')}
        name="new-password"
        autoComplete="new-password"
        placeholder={t('placeholderNewPassword')}
        showLabel={t('showPassword')}
        hideLabel={t('hidePassword')}
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setRuleError(null);
        }}
        aria-invalid={ruleError ? true : undefined}
        aria-describedby={ruleError ? 'reset-error' : undefined}
      />
      <PasswordField
        id="reset-confirm"
        label={t('fieldConfirmPassword')}
        name="confirm-password"
        autoComplete="new-password"
        placeholder={t('placeholderConfirmPassword')}
        showLabel={t('showPassword')}
        hideLabel={t('hidePassword')}
        value={confirmation}
        onChange={(event) => {
          setConfirmation(event.target.value);
          setRuleError(null);
        }}
        aria-invalid={ruleError ? true : undefined}
        aria-describedby={ruleError ? 'reset-error' : undefined}
      />
      <FieldError id="reset-error">{ruleError ? t(ruleError) : null}</FieldError>
      <Button type="submit" size="lg" disabled={submitting} className="w-full">
        {submitting ? <Spinner /> : null}
        {t('resetButton')}
      </Button>
      <Button asChild variant="ghost" className="self-center">
        <Link to="/signin">{t('backToSignIn')}</Link>
      </Button>
    </form>
  );
}
