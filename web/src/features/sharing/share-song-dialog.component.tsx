import { isEmailShaped } from '@encore/common/auth.rules';
import type { Song } from '@encore/common/library.contract';
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { apiErrorText } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { postSendSongLink } from './sharing.api';

interface ShareSongDialogProps {
  song: Pick<Song, 'id' | 'displayName'> | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Share by e-mail (SPEC 2, 4, 5): an address field and Send, disabled while empty or sending. */
export function ShareSongDialog({ song, open, onOpenChange }: ShareSongDialogProps) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  function changeOpen(next: boolean) {
    if (sending) return;
    if (!next) {
      setEmail('');
      setError(null);
    }
    onOpenChange(next);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    if (!address) return setError(t('shareEmailRequired'));
    if (!isEmailShaped(address)) return setError(t('shareEmailInvalid'));
    if (!song) {
      setError(t('shareSongUrlMissing'));
      toast.error(t('shareSongUrlMissing'));
      return;
    }
    setError(null);
    setSending(true);
    let failure: string | null = null;
    try {
      const answer = await postSendSongLink(song.id, address);
      if (!answer.success) failure = answer.message.trim() || t('sendEmailFailed');
    } catch (caught) {
      failure = apiErrorText(caught, { fallback: t('sendEmailFailed') });
    } finally {
      setSending(false);
    }
    if (failure) {
      setError(failure);
      toast.error(failure);
      return;
    }
    toast.success(t('emailSentSuccess'));
    setEmail('');
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent closeLabel={t('close')}>
        <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={sending}>
          <DialogHeader>
            <DialogTitle>{t('shareTitle')}</DialogTitle>
            <DialogDescription>{t('shareDescription', { title: song?.displayName ?? '' })}</DialogDescription>
          </DialogHeader>
          <TextField
            id="share-email"
            label={t('fieldEmailAddress')}
            // Text, not email: browsers strip an email input's spaces, which would hide the
            // 'Please enter an email address.' rule behind the disabled button.
            type="text"
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            placeholder={t('placeholderEmail')}
            value={email}
            error={error}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(null);
            }}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => changeOpen(false)} disabled={sending}>
              {t('cancel')}
            </Button>
            <Button type="submit" disabled={email === '' || sending}>
              {sending ? <Spinner /> : <Send aria-hidden className="size-4 rtl:-scale-x-100" />}
              {sending ? t('sending') : t('shareSend')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
