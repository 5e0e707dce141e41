import { CircleAlert, CircleCheck, MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageGlow } from '../../components/page-glow';
import { StatusPanel } from '../../components/status-panel';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { apiErrorText } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { postVerifyEmail } from './auth.api';
import { sessionStore, useSession } from '../../lib/session.store';

type Outcome = { kind: 'pending' } | { kind: 'done' } | { kind: 'failed'; message: string };

/** /verify-email?token=... from the e-mailed link: confirms the address once, then says how it went. */
export function VerifyEmailPage() {
  useDocumentTitle('verifyEmailTitle');
  const t = useT();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const [outcome, setOutcome] = useState<Outcome>(() => (token ? { kind: 'pending' } : { kind: 'failed', message: t('verifyLinkInvalid') }));
  // The token works once: a second effect run (StrictMode, a language switch) must not spend it again.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    postVerifyEmail(token).then(
      () => {
        setOutcome({ kind: 'done' });
        if (sessionStore.getState().isLoggedIn) void sessionStore.refreshProfile();
      },
      (error: unknown) => {
        const message = apiErrorText(error, { fallback: t('verifyEmailFailed'), byStatus: { 400: t('verifyLinkInvalid') } });
        setOutcome({ kind: 'failed', message });
      },
    );
  }, [token, t]);

  const onward = isLoggedIn ? (
    <Button asChild size="lg">
      <Link to="/">{t('backToHome')}</Link>
    </Button>
  ) : (
    <Button asChild size="lg">
      <Link to="/signin">{t('goToSignIn')}</Link>
    </Button>
  );

  return (
    <div className="relative isolate flex flex-1 items-start justify-center px-4 pt-28 pb-16 sm:items-center sm:pt-32">
      <PageGlow className="top-16 h-[420px] max-w-3xl" />
      <Card className="w-full max-w-[440px] p-2 sm:p-4">
        {outcome.kind === 'pending' ? (
          <StatusPanel as="h1" role="status" icon={<MailCheck aria-hidden />} title={t('verifyEmailTitle')}>
            <span className="inline-flex items-center gap-2">
              <Spinner className="size-4" />
              {t('verifyingEmail')}
            </span>
          </StatusPanel>
        ) : outcome.kind === 'done' ? (
          <StatusPanel as="h1" role="status" icon={<CircleCheck aria-hidden />} title={t('verifyDoneHeading')} actions={onward}>
            {t('emailVerified')}
          </StatusPanel>
        ) : (
          <StatusPanel as="h1" role="alert" tone="danger" icon={<CircleAlert aria-hidden />} title={t('verifyFailedHeading')} actions={onward}>
            <p>{outcome.message}</p>
            <p className="mt-2">{t('verifyFailedHelp')}</p>
          </StatusPanel>
        )}
      </Card>
    </div>
  );
}
