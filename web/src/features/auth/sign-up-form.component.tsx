import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FieldError } from '../../components/ui/field-error';
import { Label } from '../../components/ui/label';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { Trans } from '../../lib/i18n/trans.component';
import type { AuthForm } from './auth-form.state';
import { PasswordStrength } from './password-strength.component';
import { sessionStore } from '../../lib/session.store';
import { authSubmitDelay } from './submit-delay';
import { useInvitation } from './invitation.query';
import { SignUpNotice } from './sign-up-notice.component';

const linkClass = 'font-medium text-fuchsia-300 underline-offset-4 hover:underline focus-visible:rounded-sm';

/** `invitation`: the token of an invitation link; its address is filled in and the sign-up uses it. */
export function SignUpForm({ form, invitation = null }: { form: AuthForm; invitation?: string | null }) {
  const t = useT();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const { values, errors, setValue, validateField, validateAll } = form;
  const invited = useInvitation(invitation);
  const invitedEmail = invited.data?.email;

  // Once, when the link's address arrives: the invited person may still change it.
  useEffect(() => {
    if (invitedEmail) setValue('email', invitedEmail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setValue is a new function each render; the address is what matters
  }, [invitedEmail]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || !validateAll()) return;
    setSubmitting(true);
    try {
      await authSubmitDelay();
      const response = await sessionStore.signUp({
        userName: values.userName.trim(),
        email: values.email.trim(),
        password: values.password,
        invitation: invitation ?? undefined,
      });
      // Sign-up does not sign in (SPEC 4); the visitor lands on / and signs in from there.
      toast.success(response.message || t('signUpSuccess'));
      void navigate('/');
    } catch (error) {
      toastApiError(error, { fallback: t('signUpError') });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={submitting}>
      {invitedEmail ? (
        <SignUpNotice tone="invited" testId="signup-invited">
          {t('signUpInvitedNote', { email: invitedEmail })}
        </SignUpNotice>
      ) : null}
      {invited.isError ? <SignUpNotice testId="signup-invitation-invalid">{t('invitationInvalid')}</SignUpNotice> : null}
      <TextField
        id="signup-username"
        label={t('fieldUsername')}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('placeholderUsername')}
        value={values.userName}
        onChange={(event) => setValue('userName', event.target.value)}
        onBlur={() => validateField('userName')}
        error={errors.userName ? t(errors.userName) : null}
      />
      <TextField
        id="signup-email"
        label={t('fieldEmail')}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        placeholder={t('placeholderEmail')}
        value={values.email}
        onChange={(event) => setValue('email', event.target.value)}
        onBlur={() => validateField('email')}
        error={errors.email ? t(errors.email) : null}
      />
      <PasswordField
        id="signup-password"
        label={t('fieldPassword')}
        name="new-password"
        autoComplete="new-password"
        placeholder={t('placeholderNewPassword')}
        showLabel={t('showPassword')}
        hideLabel={t('hidePassword')}
        value={values.password}
        onChange={(event) => setValue('password', event.target.value)}
        onBlur={() => validateField('password')}
        error={errors.password ? t(errors.password) : null}
        below={<PasswordStrength password={values.password} />}
      />
      <div className="flex flex-col gap-2">
        <div className="flex items-start gap-2.5">
          <Checkbox
            id="signup-terms"
            className="mt-0.5"
            checked={values.acceptTerms}
            onCheckedChange={(checked) => setValue('acceptTerms', checked === true)}
            onBlur={() => validateField('acceptTerms')}
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={errors.acceptTerms ? 'signup-terms-error' : undefined}
          />
          <Label htmlFor="signup-terms" className="cursor-pointer leading-relaxed font-normal text-muted">
            <Trans
              k="acceptTerms"
              values={{
                terms: (
                  <a href="#terms" className={linkClass}>
                    {t('termsOfService')}
                  </a>
                ),
                privacy: (
                  <a href="#privacy" className={linkClass}>
                    {t('privacyPolicy')}
                  </a>
                ),
              }}
            />
          </Label>
        </div>
        <FieldError id="signup-terms-error">{errors.acceptTerms ? t(errors.acceptTerms) : null}</FieldError>
      </div>
      <Button type="submit" size="lg" disabled={submitting} className="w-full">
        {submitting ? <Spinner /> : null}
        {t('signUpButton')}
      </Button>
    </form>
  );
}
