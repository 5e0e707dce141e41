import { checkForgotPassword, type RuleResult } from '@encore/common/auth.rules';
import { RESET_TOKEN_TTL_MINUTES } from '@encore/common/constants';
import { ArrowLeft, Mail, MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { FieldError } from '../../components/ui/field-error';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { postForgotPassword } from './auth.api';

interface ForgotPasswordProps {
  initialUserName?: string;
  onBack: () => void;
}

/** The forgot-password view inside the auth card (SPEC 2). */
export function ForgotPassword({ initialUserName = '', onBack }: ForgotPasswordProps) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [userName, setUserName] = useState(initialUserName);
  const [ruleError, setRuleError] = useState<RuleResult>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  function clearErrors() {
    setRuleError(null);
    setServerError(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const problem = checkForgotPassword(email, userName);
    setRuleError(problem);
    setServerError(null);
    if (problem) return;
    setSending(true);
    try {
      await postForgotPassword({ email: email.trim(), userName: userName.trim() });
      toast.success(t('resetLinkSent'));
      setSentTo(email.trim());
    } catch (error) {
      setServerError(toastApiError(error, { fallback: t('resetEmailFailed') }));
    } finally {
      setSending(false);
    }
  }

  if (sentTo !== null) {
    return (
      <div className="flex flex-col items-center gap-4 text-center" role="status">
        <span className="grid size-14 place-items-center rounded-2xl bg-emerald-400/10 text-success ring-1 ring-emerald-400/30">
          <MailCheck aria-hidden className="size-7" />
        </span>
        <h2 className="text-2xl font-bold tracking-tight">{t('emailSentTitle')}</h2>
        <p className="text-sm leading-relaxed text-muted">
          {t('emailSentBody', { email: sentTo })}
          <br />
          {t('emailSentExpiry', { minutes: RESET_TOKEN_TTL_MINUTES })}
        </p>
        <Button size="lg" className="mt-2 w-full" onClick={onBack}>
          {t('returnToSignIn')}
        </Button>
      </div>
    );
  }

  const error = ruleError ? t(ruleError) : serverError;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={sending}>
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="grid size-14 place-items-center rounded-2xl bg-accent/10 text-fuchsia-300 ring-1 ring-accent/30">
          <Mail aria-hidden className="size-7" />
        </span>
        <h2 className="text-2xl font-bold tracking-tight">{t('forgotHeading')}</h2>
        <p className="text-sm leading-relaxed text-muted">{t('forgotSubheading')}</p>
      </div>
      <TextField
        id="forgot-email"
        label={t('fieldEmailAddress')}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        placeholder={t('placeholderEmail')}
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          clearErrors();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'forgot-error' : undefined}
      />
      <TextField
        id="forgot-username"
        label={t('fieldUsername')}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('placeholderUsername')}
        value={userName}
        onChange={(event) => {
          setUserName(event.target.value);
          clearErrors();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'forgot-error' : undefined}
      />
      <FieldError id="forgot-error">{error}</FieldError>
      <Button type="submit" size="lg" disabled={sending} className="w-full">
        {sending ? <Spinner /> : null}
        {sending ? t('sending') : t('sendResetLink')}
      </Button>
      <Button variant="ghost" onClick={onBack} className="self-center">
        <ArrowLeft aria-hidden className="size-4 rtl:rotate-180" />
        {t('backToSignIn')}
      </Button>
    </form>
  );
}
