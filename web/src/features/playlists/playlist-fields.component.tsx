import { PLAYLIST_DESCRIPTION_MAX, PLAYLIST_NAME_MAX } from '@encore/common/playlists.contract';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { TextField } from '../../components/ui/text-field';
import { useT } from '../../lib/i18n/i18n.store';

export interface PlaylistDraft {
  name: string;
  description: string;
}

interface PlaylistFieldsProps {
  /** Prefix of the inputs' ids, unique on the page. */
  idPrefix: string;
  value: PlaylistDraft;
  onChange: (value: PlaylistDraft) => void;
  nameError?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
}

/** The name (required) and description (optional) of a playlist, for creating and editing. */
export function PlaylistFields({ idPrefix, value, onChange, nameError, disabled, autoFocus }: PlaylistFieldsProps) {
  const t = useT();
  const descriptionId = `${idPrefix}-description`;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label={t('playlistNameLabel')}
        required
        aria-required
        dir="auto"
        autoComplete="off"
        maxLength={PLAYLIST_NAME_MAX}
        placeholder={t('playlistNamePlaceholder')}
        value={value.name}
        error={nameError}
        disabled={disabled}
        autoFocus={autoFocus}
        onChange={(event) => onChange({ ...value, name: event.target.value })}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor={descriptionId}>
          {t('playlistDescriptionLabel')} <span className="font-normal text-subtle">({t('playlistDescriptionOptional')})</span>
        </Label>
        <Textarea
          id={descriptionId}
          dir="auto"
          rows={3}
          maxLength={PLAYLIST_DESCRIPTION_MAX}
          placeholder={t('playlistDescriptionPlaceholder')}
          value={value.description}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, description: event.target.value })}
        />
      </div>
    </>
  );
}
