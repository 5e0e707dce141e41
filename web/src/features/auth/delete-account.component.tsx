import { authMessagesEn } from '@encore/common/messages.en';
import { useMutation } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { isApiError } from '../../lib/api-client';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { useLogOut } from '../../app/log-out';
import { deleteOwnAccount } from './auth.api';

/**
 * The profile page's last section: deleting one's own account, the password asked again. An
 * account without a password (Google or single sign-on) confirms with its user name: the one
 * field is sent as both, and the server checks whichever the account has.
 */
export function DeleteAccountSection() {
  const t = useT();
  const logOut = useLogOut();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState('');
  const remove = useMutation({
    mutationFn: (value: string) => deleteOwnAccount({ password: value, userName: value }),
    onSuccess: () => {
      setOpen(false);
      toast.success(t('deleteAccountDone'));
      // As Log Out does: to / first, then the session is cleared (the login guard would otherwise send the visitor to /signin).
      logOut();
    },
    onError: (error) => {
      const lastAdmin = isApiError(error) && error.status === 409 && error.serverMessage === authMessagesEn.lastAdmin;
      toastApiError(error, {
        fallback: t('deleteAccountFailed'),
        byStatus: { 400: t('deleteAccountWrongSecret'), ...(lastAdmin ? { 409: t('lastAdmin') } : {}) },
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!secret || remove.isPending) return;
    remove.mutate(secret);
  };

  return (
    <Card className="flex flex-col gap-3 border-danger/30 p-5 shadow-none sm:p-6">
      <h2 className="flex items-center gap-2 text-base font-bold text-danger">
        <Trash2 aria-hidden className="size-4.5" />
        {t('deleteAccountHeading')}
      </h2>
      <p className="text-sm text-muted">{t('deleteAccountBody')}</p>
      <div>
        <Button variant="danger" onClick={() => setOpen(true)}>
          {t('deleteAccountButton')}
        </Button>
      </div>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setSecret('');
        }}
      >
        <DialogContent closeLabel={t('close')}>
          <form onSubmit={submit} className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>{t('deleteAccountConfirmTitle')}</DialogTitle>
              <DialogDescription>{t('deleteAccountConfirmBody')}</DialogDescription>
            </DialogHeader>
            <PasswordField
              id="delete-account-secret"
              label={t('deleteAccountSecretLabel')}
              name="current-password"
              autoComplete="current-password"
              showLabel={t('showPassword')}
              hideLabel={t('hidePassword')}
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
              below={<p className="text-xs text-muted">{t('deleteAccountSecretHint')}</p>}
            />
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={() => setOpen(false)}>
                {t('cancel')}
              </Button>
              <Button type="submit" variant="danger" disabled={!secret || remove.isPending}>
                {remove.isPending ? <Spinner /> : <Trash2 aria-hidden className="size-4" />}
                {t('deleteAccountConfirmButton')}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
