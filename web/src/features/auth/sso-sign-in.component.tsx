import { useEffect, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { OIDC_CALLBACK_PARAMS } from '@encore/common/sso.contract';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { apiErrorText } from '../../lib/api-error-toast';
import { useClientConfig } from '../../lib/client-config.query';
import { useT } from '../../lib/i18n/i18n.store';
import { sessionStore } from '../../lib/session.store';
import { nextFromSearch, safeNextPath } from './auth-redirect';
import { postOidcCallback, postOidcStart, postProxySignIn } from './sso.api';

interface SsoSignInProps {
  rememberMe: boolean;
}

/**
 * Single sign-on on the auth screen. With OpenID Connect configured, a button (the server's
 * OIDC_BUTTON_TEXT, else "Sign in with SSO") that goes to the provider; the provider sends the
 * browser back to /signin with its answer in the query, which this hands to the server. With
 * a trusted proxy's header configured, it tries that sign-in once per page load.
 */
export function SsoSignIn({ rememberMe }: SsoSignInProps) {
  const t = useT();
  const config = useClientConfig();
  const sso = config.data?.sso;
  const navigate = useNavigate();
  const location = useLocation();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // While the provider's answer is in the address, it is being completed; either outcome takes it out.
  const callbackQuery = isProviderAnswer(location.search) ? location.search : null;
  const busy = starting || callbackQuery !== null;

  // The provider sent the browser back: complete the sign-in (once, even if the effect runs twice).
  useEffect(() => {
    if (!callbackQuery || !claim(callbackQuery)) return;
    let next = '/';
    sessionStore
      .signInWith(
        postOidcCallback(callbackQuery).then((answer) => {
          next = safeNextPath(answer.next);
          return answer;
        }),
      )
      .then(() => {
        toast.success(t('signInSuccess'));
        void navigate(next, { replace: true });
      })
      .catch((error: unknown) => {
        setProblem(apiErrorText(error, { fallback: t('ssoFailed') }));
        // The answer is spent: take it out of the address so a reload does not send it again.
        void navigate('/signin', { replace: true });
      });
  }, [callbackQuery, navigate, t]);

  // Behind a trusted proxy the header says who this is: no form needed.
  const trustedHeader = sso?.trustedHeader === true;
  useEffect(() => {
    if (!trustedHeader || callbackQuery || !claim('proxy')) return;
    const next = nextFromSearch(location.search);
    sessionStore
      .signInWith(postProxySignIn())
      .then(() => void navigate(next, { replace: true }))
      .catch((error: unknown) => console.warn('Sign-in by the proxy header was not possible', error));
  }, [trustedHeader, callbackQuery, location.search, navigate]);

  if (!sso?.oidc) return problem ? <SsoProblem text={problem} /> : null;

  async function start() {
    setStarting(true);
    setProblem(null);
    try {
      const { url } = await postOidcStart(nextFromSearch(location.search), rememberMe);
      window.location.assign(url);
    } catch (error) {
      setProblem(apiErrorText(error, { fallback: t('ssoFailed') }));
      setStarting(false);
    }
  }

  const label = sso.oidc.buttonText ?? t('ssoButton');
  return (
    <div className="flex flex-col gap-3">
      {config.data?.googleClientId ? null : (
        <div className="flex items-center gap-3 text-xs font-medium tracking-wider text-subtle uppercase">
          <span className="h-px flex-1 bg-border" />
          {t('orDivider')}
          <span className="h-px flex-1 bg-border" />
        </div>
      )}
      <Button variant="secondary" size="lg" className="w-full" disabled={busy} onClick={() => void start()}>
        {busy ? <Spinner /> : <KeyRound aria-hidden className="size-4" />}
        {callbackQuery ? t('ssoCompleting') : label}
      </Button>
      {problem ? <SsoProblem text={problem} /> : null}
    </div>
  );
}

function SsoProblem({ text }: { text: string }) {
  return (
    <p role="alert" className="rounded-xl bg-danger/10 px-4 py-3 text-sm text-danger ring-1 ring-danger/30">
      {text}
    </p>
  );
}

/** Whether /signin was opened by the provider sending the browser back (a code or an error, with its state). */
function isProviderAnswer(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && OIDC_CALLBACK_PARAMS.some((name) => params.has(name));
}

/** Each provider answer (and the proxy attempt) is sent once per page load. */
const claimed = new Set<string>();
function claim(key: string): boolean {
  if (claimed.has(key)) return false;
  claimed.add(key);
  return true;
}
