import type { RadioStation, SaveRadioStationBody } from '@encore/common/radio.contract';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { FieldError } from '../../components/ui/field-error';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { apiErrorText } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';

const HTTP_ADDRESS = /^https?:\/\/\S+$/i;

interface RadioStationDialogProps {
  /** The station to edit, or null to add one. */
  station: RadioStation | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  save: (body: SaveRadioStationBody) => Promise<unknown>;
}

type Field = 'name' | 'streamUrl' | 'homepageUrl';

/** Add or edit a station (admins): name, stream URL, home page; checked here, then by the server. */
export function RadioStationDialog({ station, open, onOpenChange, save }: RadioStationDialogProps) {
  const t = useT();
  const [name, setName] = useState(station?.name ?? '');
  const [streamUrl, setStreamUrl] = useState(station?.streamUrl ?? '');
  const [homepageUrl, setHomepageUrl] = useState(station?.homepageUrl ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function checked(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (name.trim() === '') found.name = t('radioNameRequired');
    if (streamUrl.trim() === '') found.streamUrl = t('radioStreamRequired');
    else if (!HTTP_ADDRESS.test(streamUrl.trim())) found.streamUrl = t('radioUrlInvalid');
    if (homepageUrl.trim() !== '' && !HTTP_ADDRESS.test(homepageUrl.trim())) found.homepageUrl = t('radioUrlInvalid');
    return found;
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found = checked();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await save({ name: name.trim(), streamUrl: streamUrl.trim(), homepageUrl: homepageUrl.trim() || null });
      toast.success(t('radioSaved'));
      onOpenChange(false);
    } catch (caught) {
      const message = apiErrorText(caught, { fallback: t('radioSaveFailed') });
      setFailure(message);
      toast.error(message);
    } finally {
      setSaving(false);
    }
  }

  const field = (key: Field, value: string, set: (value: string) => void) => ({
    value,
    error: errors[key] ?? null,
    onChange: (event: { target: { value: string } }) => {
      set(event.target.value);
      setErrors((current) => ({ ...current, [key]: undefined }));
    },
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent closeLabel={t('close')}>
        <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5" aria-busy={saving}>
          <DialogHeader>
            <DialogTitle>{station ? t('radioEditTitle') : t('radioAddTitle')}</DialogTitle>
            <DialogDescription>{t('radioFormDescription')}</DialogDescription>
          </DialogHeader>
          <TextField id="radio-name" label={t('radioFieldName')} autoComplete="off" maxLength={200} {...field('name', name, setName)} />
          <TextField
            id="radio-stream-url"
            label={t('radioFieldStreamUrl')}
            type="url"
            dir="ltr"
            inputMode="url"
            spellCheck={false}
            placeholder="https://"
            {...field('streamUrl', streamUrl, setStreamUrl)}
          />
          <TextField
            id="radio-homepage-url"
            label={t('radioFieldHomepageUrl')}
            type="url"
            dir="ltr"
            inputMode="url"
            spellCheck={false}
            placeholder="https://"
            {...field('homepageUrl', homepageUrl, setHomepageUrl)}
          />
          <FieldError id="radio-form-error">{failure}</FieldError>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={saving}>
              {t('cancel')}
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? <Spinner /> : null}
              {saving ? t('radioSaving') : t('radioSave')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
