import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Music2, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { searchSongs } from './clips.api';
import type { ChosenSong } from './clip-editor.store';

/** SPEC 9: the song list scrolls at 300 px. */
const LIST_MAX_HEIGHT_PX = 300;
const SEARCH_DEBOUNCE_MS = 250;

/** SPEC 2's song picker: searchable through the server (`GET files?q=&limit=`), 'No songs found' when nothing matches. */
export function SongPicker({ onChoose }: { onChoose: (song: ChosenSong) => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const songs = useQuery({
    queryKey: ['clips', 'song-search', query],
    queryFn: ({ signal }) => searchSongs(query, signal),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

  return (
    <div className="flex flex-col gap-2">
      <label className="relative">
        <span className="sr-only">{t('clipSearchSongs')}</span>
        <Search aria-hidden className="pointer-events-none absolute inset-s-3 top-1/2 size-4 -translate-y-1/2 text-muted" />
        <input
          type="search"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          placeholder={t('clipSearchSongs')}
          className="h-10 w-full rounded-xl border border-border bg-background/60 ps-9 pe-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </label>
      <ul aria-label={t('clipSongList')} className="flex flex-col gap-1 overflow-y-auto rounded-xl" style={{ maxHeight: LIST_MAX_HEIGHT_PX }}>
        {songs.isPending ? (
          <li className="flex justify-center py-6">
            <Spinner label={t('loading')} />
          </li>
        ) : songs.isError ? (
          <li className="py-6 text-center text-sm text-red-300">{songs.error.message}</li>
        ) : songs.data.length === 0 ? (
          <li className="py-6 text-center text-sm text-muted">{t('clipNoSongsFound')}</li>
        ) : (
          songs.data.map((song) => {
            const title = songHeadline(song);
            return (
              <li key={song.id}>
                <button
                  type="button"
                  onClick={() => onChoose({ id: song.id, displayName: song.displayName })}
                  className="flex w-full cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-start text-sm outline-none hover:bg-white/5 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Music2 aria-hidden className="size-4 shrink-0 text-fuchsia-300" />
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate font-medium">{title}</span>
                    {song.artist ? <span className="truncate text-xs text-muted">{song.artist}</span> : null}
                  </span>
                </button>
              </li>
            );
          })
        )}
      </ul>
    </div>
  );
}
