import type { Playlist } from '@encore/common/playlists.contract';
import { Check } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { PlaylistFields, type PlaylistDraft } from './playlist-fields.component';
import { useUpdatePlaylist } from './playlists.queries';

/**
 * 'Edit Playlist' inline (SPEC 4): name and description, Save (with a saving state) or Cancel,
 * which drops the draft so the original values show again.
 */
export function PlaylistEditForm({ playlist, onDone }: { playlist: Playlist; onDone: () => void }) {
  const t = useT();
  const update = useUpdatePlaylist(playlist.id);
  const [draft, setDraft] = useState<PlaylistDraft>({ name: playlist.name, description: playlist.description ?? '' });
  const [nameError, setNameError] = useState<string | null>(null);

  const cancel = () => {
    if (!update.isPending) onDone();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const name = draft.name.trim();
    if (!name) {
      setNameError(t('playlistNameInvalid'));
      toast.error(t('playlistNameInvalid'));
      return;
    }
    update.mutate(
      { name, description: draft.description.trim() || null },
      {
        onSuccess: () => {
          toast.success(t('playlistUpdated'));
          onDone();
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
      aria-label={t('editPlaylistLabel')}
      aria-busy={update.isPending}
      className="flex w-full flex-col gap-4"
    >
      <PlaylistFields
        idPrefix="edit-playlist"
        value={draft}
        nameError={nameError}
        disabled={update.isPending}
        autoFocus
        onChange={(next) => {
          setDraft(next);
          if (next.name !== draft.name) setNameError(null);
        }}
      />
      <div className="flex flex-wrap gap-2.5">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : <Check aria-hidden className="size-4" />}
          {update.isPending ? t('saving') : t('save')}
        </Button>
        <Button variant="ghost" onClick={cancel} disabled={update.isPending}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
