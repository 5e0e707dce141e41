import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import type { AuthForm } from './auth-form.state';
import { nextFromSearch } from './auth-redirect';
import { GoogleSignIn } from './google-sign-in.component';
import { SsoSignIn } from './sso-sign-in.component';
import { sessionStore } from '../../lib/session.store';
import { authSubmitDelay } from './submit-delay';

interface SignInFormProps {
  form: AuthForm;
  onForgotPassword: () => void;
}

export function SignInForm({ form, onForgotPassword }: SignInFormProps) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const [submitting, setSubmitting] = useState(false);
  const { values, errors, setValue, validateField, validateAll } = form;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || !validateAll()) return;
    setSubmitting(true);
    try {
      await authSubmitDelay();
      await sessionStore.signIn({
        userName: values.userName.trim(),
        password: values.password,
        rememberMe: values.rememberMe,
      });
      toast.success(t('signInSuccess'));
      void navigate(nextFromSearch(location.search), { replace: true });
    } catch (error) {
      toastApiError(error, {
        fallback: t('loginError'),
        byStatus: { 401: t('wrongCredentials') },
        serverMessage: [429],
      });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={submitting}>
        <TextField
          id="signin-username"
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
        <PasswordField
          id="signin-password"
          label={t('fieldPassword')}
          name="password"
          autoComplete="current-password"
          placeholder={t('placeholderPassword')}
          showLabel={t('showPassword')}
          hideLabel={t('hidePassword')}
          value={values.password}
          onChange={(event) => setValue('password', event.target.value)}
          onBlur={() => validateField('password')}
          error={errors.password ? t(errors.password) : null}
        />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2.5">
            <Checkbox id="signin-remember" checked={values.rememberMe} onCheckedChange={(checked) => setValue('rememberMe', checked === true)} />
            <Label htmlFor="signin-remember" className="cursor-pointer text-muted">
              {t('rememberMe')}
            </Label>
          </div>
          <Button variant="link" onClick={onForgotPassword} className="h-auto px-0 text-sm">
            {t('forgotPasswordLink')}
          </Button>
        </div>
        <Button type="submit" size="lg" disabled={submitting} className="w-full">
          {submitting ? <Spinner /> : null}
          {t('signInButton')}
        </Button>
      </form>
      <GoogleSignIn rememberMe={values.rememberMe} />
      <SsoSignIn rememberMe={values.rememberMe} />
    </div>
  );
}
