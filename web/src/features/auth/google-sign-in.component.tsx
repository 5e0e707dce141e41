import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { authMessagesEn } from '@encore/common/messages.en';
import { isApiError } from '../../lib/api-client';
import { apiErrorText } from '../../lib/api-error-toast';
import { useClientConfig } from '../../lib/client-config.query';
import { useLanguage, useT, type Translate } from '../../lib/i18n/i18n.store';
import { nextFromSearch } from './auth-redirect';
import { loadGoogleIdentity, type GoogleCredentialResponse } from './google-identity';
import { sessionStore } from '../../lib/session.store';

interface GoogleSignInProps {
  rememberMe: boolean;
}

/**
 * "Continue with Google", shown only when the server has a Google client id configured.
 * Google's script renders its own button; its credential goes to /api/auth/google-login.
 */
export function GoogleSignIn({ rememberMe }: GoogleSignInProps) {
  const t = useT();
  const config = useClientConfig();
  const clientId = config.data?.googleClientId ?? null;
  if (!clientId) return null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3 text-xs font-medium tracking-wider text-subtle uppercase">
        <span className="h-px flex-1 bg-border" />
        {t('orDivider')}
        <span className="h-px flex-1 bg-border" />
      </div>
      <GoogleButton clientId={clientId} rememberMe={rememberMe} />
    </div>
  );
}

/** Long enough to read the unverified-address advice, which says what to do next. */
const ADVICE_TOAST_MS = 20_000;

/**
 * The 409 for an address whose Encore account is unverified has its own translated advice;
 * other failures show the server's message or the generic one.
 */
function showGoogleFailure(error: unknown, t: Translate): void {
  if (isApiError(error) && error.status === 409 && error.serverMessage === authMessagesEn.googleEmailUnverified) {
    toast.error(t('googleEmailUnverified'), { duration: ADVICE_TOAST_MS });
    return;
  }
  toast.error(apiErrorText(error, { fallback: t('googleLoginFailed') }));
}

function GoogleButton({ clientId, rememberMe }: { clientId: string; rememberMe: boolean }) {
  const t = useT();
  const language = useLanguage();
  const navigate = useNavigate();
  const location = useLocation();
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  // Google keeps the callback it was initialised with; it reads the current values from here.
  const latest = useRef({ rememberMe, search: location.search, t, navigate });
  useEffect(() => {
    latest.current = { rememberMe, search: location.search, t, navigate };
  });

  useEffect(() => {
    let cancelled = false;
    async function handleCredential(response: GoogleCredentialResponse) {
      const { rememberMe: remember, search, t: translateNow, navigate: go } = latest.current;
      if (!response.credential) {
        toast.error(translateNow('googleLoginFailed'));
        return;
      }
      try {
        await sessionStore.googleLogin(response.credential, remember);
        toast.success(translateNow('signInSuccess'));
        void go(nextFromSearch(search), { replace: true });
      } catch (error) {
        showGoogleFailure(error, translateNow);
      }
    }
    loadGoogleIdentity()
      .then((google) => {
        const parent = container.current;
        if (cancelled || !parent) return;
        google.initialize({ client_id: clientId, callback: (response) => void handleCredential(response) });
        parent.replaceChildren();
        google.renderButton(parent, {
          type: 'standard',
          theme: 'filled_black',
          size: 'large',
          shape: 'pill',
          text: 'continue_with',
          logo_alignment: 'center',
          width: Math.min(400, Math.max(200, Math.floor(parent.clientWidth))),
          locale: language,
        });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, language]);

  if (failed) return null;
  return <div ref={container} title={t('continueWithGoogle')} className="flex min-h-11 w-full justify-center [color-scheme:light]" />;
}
