import type { Playlist } from '@encore/common/playlists.contract';
import { ChevronDown, Plus } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { SearchBox } from '../../components/search-box';
import { useDebounced } from '../../lib/use-debounced';
import { SONG_CHOICES_LIMIT, useAddPlaylistSong, useSongChoices } from './playlists.queries';
import { TryAgainButton } from '../../components/try-again-button';

/**
 * The Add Song selector (SPEC 2, 5, 8), with an 'Add Song' button: it offers the first songs
 * by title, and a search (on the server) finds any other in a collection of any size.
 */
export function AddSong({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const selectId = useId();
  const [search, setSearch] = useState('');
  const query = useDebounced(search, 250);
  const choices = useSongChoices(query);
  const songs = { ...choices, data: choices.data?.songs };
  const total = choices.data?.total ?? 0;
  const add = useAddPlaylistSong();
  const [songId, setSongId] = useState('');
  const inPlaylist = new Set(playlist.songs.map((song) => song.id));

  // Each failed load says so once (SPEC 8 'Failed to load songs').
  useEffect(() => {
    if (songs.isError) toast.error(t('loadSongsFailed'));
  }, [songs.isError, songs.errorUpdatedAt, t]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!songId) {
      toast.error(t('selectSongToAdd'));
      return;
    }
    add.mutate(
      { playlistId: playlist.id, songId: Number(songId) },
      {
        onSuccess: () => {
          toast.success(t('songAddedToPlaylist'));
          setSongId('');
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-2">
      <Label htmlFor={selectId}>{t('addSongLabel')}</Label>
      <SearchBox label={t('musicSearchLabel')} placeholder={t('musicSearchPlaceholder')} value={search} onChange={setSearch} />
      <div className="flex flex-col gap-2.5 sm:flex-row">
        <div className="relative min-w-0 flex-1">
          <select
            id={selectId}
            value={songId}
            onChange={(event) => setSongId(event.target.value)}
            disabled={add.isPending}
            aria-busy={songs.isPending}
            className={cn(
              'h-11 w-full min-w-0 cursor-pointer appearance-none rounded-xl border border-border bg-input/70 ps-3.5 pe-10 text-[0.95rem] text-foreground shadow-inner shadow-black/20 transition-[border-color,box-shadow] outline-none',
              'hover:border-accent/40 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60',
              songId === '' && 'text-subtle',
            )}
          >
            <option value="">{songs.isPending ? t('addSongLoading') : t('addSongPlaceholder')}</option>
            {songs.data?.map((song) => (
              <option key={song.id} value={song.id} disabled={inPlaylist.has(song.id)} className="text-foreground">
                {inPlaylist.has(song.id) ? t('addSongInPlaylist', { title: song.displayName }) : song.displayName}
              </option>
            ))}
          </select>
          <ChevronDown aria-hidden className="pointer-events-none absolute end-3.5 top-1/2 size-4 -translate-y-1/2 text-subtle" />
        </div>
        {choices.isError ? <TryAgainButton query={choices} variant="secondary" /> : null}
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? <Spinner /> : <Plus aria-hidden className="size-4" />}
          {t('addSongButton')}
        </Button>
      </div>
      {total > SONG_CHOICES_LIMIT ? <p className="text-xs text-subtle">{t('addSongFirstOf', { shown: SONG_CHOICES_LIMIT, count: total })}</p> : null}
    </form>
  );
}
