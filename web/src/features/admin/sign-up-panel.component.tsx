import type { SignUpMode } from '@encore/common/auth.contract';
import { DoorOpen, Lock } from 'lucide-react';
import { ToggleGroup } from '../../components/ui/toggle-group';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { AdminSection, SectionState } from './admin-section.component';
import { useAdminSettings, useSetSignUpMode } from './admin.queries';

const HINTS = { open: 'adminSignUpOpenHint', invite: 'adminSignUpInviteHint', closed: 'adminSignUpClosedHint' } as const;

/** SIGNUP: open, by invitation or closed; the environment's setting wins and the page says so. */
export function SignUpPanel() {
  const t = useT();
  const settings = useAdminSettings();
  const save = useSetSignUpMode();
  const setting = settings.data?.signUp;
  const items: { value: SignUpMode; label: string }[] = [
    { value: 'open', label: t('adminSignUpOpen') },
    { value: 'invite', label: t('adminSignUpInvite') },
    { value: 'closed', label: t('adminSignUpClosed') },
  ];
  return (
    <AdminSection id="admin-sign-up" icon={<DoorOpen aria-hidden />} title={t('adminSignUpHeading')}>
      {settings.isPending ? (
        <Spinner />
      ) : !setting ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : (
        <>
          <fieldset disabled={setting.fromEnvironment || save.isPending} className="flex flex-col gap-2 disabled:opacity-70">
            <ToggleGroup<SignUpMode>
              label={t('adminSignUpLabel')}
              value={save.isPending ? (save.variables ?? setting.mode) : setting.mode}
              onValueChange={(mode) => mode !== setting.mode && save.mutate(mode)}
              items={items}
            />
            <p className="text-sm text-muted">{t(HINTS[setting.mode])}</p>
          </fieldset>
          {setting.fromEnvironment ? (
            <p data-testid="signup-from-environment" className="flex items-start gap-2 rounded-xl bg-white/5 px-3 py-2 text-sm text-muted">
              <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
              {t('adminSignUpFromEnvironment')}
            </p>
          ) : null}
        </>
      )}
    </AdminSection>
  );
}
