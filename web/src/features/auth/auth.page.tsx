import { useState } from 'react';
import { useClientConfig } from '../../lib/client-config.query';
import { useLocation, useNavigate } from 'react-router';
import { Card } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { LogoMark } from '../../components/logo-mark';
import { textDirection, useLanguage, useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAuthForm, type AuthMode } from './auth-form.state';
import { ForgotPassword } from './forgot-password.component';
import { SignInForm } from './sign-in-form.component';
import { SignUpForm } from './sign-up-form.component';
import { SignUpNotice } from './sign-up-notice.component';
import { PageGlow } from '../../components/page-glow';

/** Router state that opens the forgot-password view directly (the reset page's "request a new link"). */
export interface AuthLocationState {
  view?: 'forgot';
}

function modeOf(pathname: string): AuthMode {
  return pathname.replace(/\/+$/, '') === '/signup' ? 'signup' : 'signin';
}

/**
 * The auth screen of /signin and /signup: the route picks the tab (SPEC 2). Who may sign up
 * (SIGNUP) shapes it: closed has no sign-up tab and says how to get an account; invite shows
 * the form only with an invitation link (`/signup?invitation=…`), its address filled in.
 */
export function AuthPage() {
  const t = useT();
  const language = useLanguage();
  const location = useLocation();
  const navigate = useNavigate();
  const signUpMode = useClientConfig().data?.signUp ?? 'open';
  const invitation = new URLSearchParams(location.search).get('invitation');
  const closed = signUpMode === 'closed';
  const mode = closed ? 'signin' : modeOf(location.pathname);
  const form = useAuthForm(mode);
  const wantsForgot = (location.state as AuthLocationState | null)?.view === 'forgot';
  const [view, setView] = useState<'form' | 'forgot'>(wantsForgot ? 'forgot' : 'form');
  const [viewMode, setViewMode] = useState(mode);

  // Another tab (route) always starts on its form.
  if (viewMode !== mode) {
    setViewMode(mode);
    setView('form');
  }

  useDocumentTitle(view === 'forgot' ? 'forgotTitle' : mode === 'signup' ? 'signUpTitle' : 'signInTitle');

  function switchTab(next: string) {
    const target = next === 'signup' ? '/signup' : '/signin';
    // Keep ?next= so a guest stopped by the login guard still comes back afterwards.
    void navigate({ pathname: target, search: location.search }, { replace: true });
  }

  const heading = mode === 'signup' ? t('signUpHeading') : t('signInHeading');
  const subheading = mode === 'signup' ? t('signUpSubheading') : t('signInSubheading');

  return (
    <div className="relative isolate flex flex-1 items-start justify-center px-4 pt-28 pb-16 sm:items-center sm:pt-32">
      <PageGlow className="top-16 h-[420px] max-w-3xl" />
      <Card className="w-full max-w-[440px] p-5 sm:p-8">
        {view === 'forgot' ? (
          <ForgotPassword initialUserName={form.values.userName} onBack={() => setView('form')} />
        ) : (
          <div className="flex flex-col gap-6">
            <div className="flex flex-col items-center gap-3 text-center">
              <LogoMark className="size-11" />
              <div className="flex flex-col gap-1">
                <h1 className="text-2xl font-bold tracking-tight">{heading}</h1>
                <p className="text-sm text-muted">{subheading}</p>
              </div>
            </div>
            <Tabs value={mode} onValueChange={switchTab} dir={textDirection(language)} activationMode="manual">
              {closed ? null : (
                <TabsList aria-label={t('authTabsLabel')}>
                  <TabsTrigger value="signin">{t('signInTitle')}</TabsTrigger>
                  <TabsTrigger value="signup">{t('signUpTitle')}</TabsTrigger>
                </TabsList>
              )}
              <TabsContent value="signin" className={closed ? 'flex flex-col gap-6' : 'pt-6'}>
                <SignInForm form={form} onForgotPassword={() => setView('forgot')} />
                {closed ? <SignUpNotice testId="signup-closed">{t('signUpClosedNote')}</SignUpNotice> : null}
              </TabsContent>
              {closed ? null : (
                <TabsContent value="signup" className="pt-6">
                  {signUpMode === 'invite' && !invitation ? (
                    <SignUpNotice testId="signup-invite-only">{t('signUpInviteOnlyNote')}</SignUpNotice>
                  ) : (
                    <SignUpForm form={form} invitation={invitation} />
                  )}
                </TabsContent>
              )}
            </Tabs>
          </div>
        )}
      </Card>
    </div>
  );
}
