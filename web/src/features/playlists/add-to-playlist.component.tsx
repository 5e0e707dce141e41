import type { SongListEntry } from '@encore/common/library.contract';
import { PLAYLIST_NAME_MAX, type Playlist } from '@encore/common/playlists.contract';
import { Check, ListMusic, ListPlus, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { apiErrorText } from '../../lib/api-error-toast';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { useAddPlaylistSong, useAddPlaylistSongs, useCreatePlaylist, usePlaylists } from './playlists.queries';
import { TryAgainButton } from '../../components/try-again-button';

type Songs = readonly Pick<SongListEntry, 'id' | 'displayName'>[];

/** Add to Playlist on a song page (SPEC 2): pick one of the user's playlists, or create one on the spot. */
export function AddToPlaylistButton({ song }: { song: Pick<SongListEntry, 'id' | 'displayName'> }) {
  return <AddToPlaylistDialogButton songs={[song]} title={song.displayName} />;
}

/** Add to Playlist for several songs (an album's, issue 38): appended in their order, those already there skipped. */
export function AddSongsToPlaylistButton({ songs, name }: { songs: Songs; name: string }) {
  return <AddToPlaylistDialogButton songs={songs} title={name} />;
}

function AddToPlaylistDialogButton({ songs, title }: { songs: Songs; title: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} disabled={songs.length === 0}>
        <ListPlus aria-hidden className="size-4" />
        {t('addToPlaylist')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent closeLabel={t('close')}>
          {open ? <AddToPlaylistChooser songs={songs} title={title} onDone={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function AddToPlaylistChooser({ songs, title, onDone }: { songs: Songs; title: string; onDone: () => void }) {
  const t = useT();
  const countOf = useTCount();
  const navigate = useNavigate();
  const playlists = usePlaylists();
  const addOne = useAddPlaylistSong();
  const addMany = useAddPlaylistSongs();
  const create = useCreatePlaylist();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const add = songs.length === 1 ? addOne : addMany;
  const busy = add.isPending || create.isPending;

  const added = (playlist: Playlist) => {
    toast.success(songs.length === 1 ? t('songAddedToPlaylist') : countOf('songsAddedToPlaylist', songs.length), {
      description: playlist.name,
      action: { label: t('viewPlaylist'), onClick: () => void navigate(`/playlists/${playlist.id}`) },
    });
    onDone();
  };

  const addTo = (playlistId: number) => {
    const [first] = songs;
    if (songs.length === 1 && first) addOne.mutate({ playlistId, songId: first.id }, { onSuccess: added });
    else addMany.mutate({ playlistId, songIds: songs.map((song) => song.id) }, { onSuccess: added });
  };

  const createAndAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t('playlistNameRequired'));
      return;
    }
    create.mutate(
      { name: trimmed },
      {
        onSuccess: (playlist) => addTo(playlist.id),
        onError: (error) => setNameError(apiErrorText(error, { fallback: t('createPlaylistFailed'), serverMessage: [400] })),
      },
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <DialogHeader>
        <DialogTitle>{t('addToPlaylist')}</DialogTitle>
        <DialogDescription>{t('addToPlaylistDescription', { title })}</DialogDescription>
      </DialogHeader>

      {playlists.isPending ? (
        <p role="status" className="flex items-center gap-3 py-4 text-sm text-muted">
          <Spinner className="size-5 text-accent" />
          {t('playlistsLoading')}
        </p>
      ) : playlists.isError ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-danger/10 p-3 text-sm text-danger">
          {t('playlistsLoadFailed')}
          <TryAgainButton query={playlists} size="sm" variant="secondary" />
        </div>
      ) : playlists.data.length === 0 ? (
        <p className="rounded-xl bg-white/[0.04] p-4 text-sm text-muted">{t('addToPlaylistNone')}</p>
      ) : (
        <ul className="-mx-1 flex max-h-72 flex-col gap-1 overflow-y-auto px-1">
          {playlists.data.map((playlist) => {
            const inside = songs.every((song) => playlist.songs.some((entry) => entry.id === song.id));
            const adding = add.isPending && add.variables?.playlistId === playlist.id;
            const count = countOf('playlistSongCount', playlist.songCount);
            return (
              <li key={playlist.id}>
                <button
                  type="button"
                  disabled={inside || busy}
                  aria-label={inside ? `${playlist.name} · ${t('addToPlaylistAdded')}` : t('addToPlaylistChoose', { name: playlist.name })}
                  onClick={() => addTo(playlist.id)}
                  className="flex w-full cursor-pointer items-center gap-3 rounded-xl p-2.5 text-start transition-colors outline-none hover:bg-white/5 focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default disabled:hover:bg-transparent"
                >
                  <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent/15 text-fuchsia-300">
                    <ListMusic aria-hidden className="size-5" />
                  </span>
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span dir="auto" className="truncate text-sm font-semibold">
                      {playlist.name}
                    </span>
                    <span className="text-xs text-muted">{count}</span>
                  </span>
                  {adding ? (
                    <Spinner className="text-accent" />
                  ) : inside ? (
                    <span className="flex items-center gap-1 text-xs font-semibold text-success">
                      <Check aria-hidden className="size-4" />
                      {t('addToPlaylistAdded')}
                    </span>
                  ) : (
                    <Plus aria-hidden className="size-4 text-muted" />
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}

      <form noValidate onSubmit={createAndAdd} className="flex flex-col gap-3 border-t border-border pt-5">
        <TextField
          id="add-to-new-playlist"
          label={t('newPlaylistLabel')}
          dir="auto"
          autoComplete="off"
          maxLength={PLAYLIST_NAME_MAX}
          placeholder={t('playlistNamePlaceholder')}
          value={name}
          error={nameError}
          disabled={busy}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
        />
        <Button type="submit" disabled={busy} className="self-end">
          {create.isPending ? <Spinner /> : <ListPlus aria-hidden className="size-4" />}
          {t('createAndAdd')}
        </Button>
      </form>
    </div>
  );
}
