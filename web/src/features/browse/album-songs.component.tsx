import type { SongListEntry } from '@encore/common/library.contract';
import { Play } from 'lucide-react';
import { Link } from 'react-router';
import { formatClockTime } from '../../lib/clock-time.format';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { player, usePlayer } from '../../player/player.store';

/** The songs of an album or a list, each with its play button: playing one plays the queue from it. */
export function SongRows({
  songs,
  queue = songs,
  source,
  showTrack = true,
}: {
  songs: readonly SongListEntry[];
  /** What plays from the song chosen (the whole album when `songs` is one disc of it). */
  queue?: readonly SongListEntry[];
  source: string;
  showTrack?: boolean;
}) {
  const t = useT();
  const currentId = usePlayer((state) => state.current?.id);
  return (
    <ol className="flex flex-col">
      {songs.map((song, index) => (
        <li
          key={song.id}
          className={cn(
            'grid grid-cols-[2.5rem_minmax(0,1fr)_auto] items-center gap-2 rounded-lg px-2 py-1.5 hover:bg-white/5',
            currentId === song.id && 'bg-accent/10',
          )}
          data-testid="song-row"
        >
          <button
            type="button"
            onClick={() => player.playQueue(queue, Math.max(0, queue.indexOf(song)), { source })}
            aria-label={t('browsePlaySong', { title: song.displayName })}
            className="group grid size-9 place-items-center rounded-full text-sm text-muted hover:bg-accent/20 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <span className="group-hover:hidden group-focus-visible:hidden" dir="ltr">
              {showTrack && song.trackNumber !== null ? song.trackNumber : index + 1}
            </span>
            <Play aria-hidden className="hidden size-4 group-hover:block group-focus-visible:block" />
          </button>
          <Link to={`/music/${song.id}`} className="truncate text-sm font-medium outline-none hover:underline focus-visible:underline">
            <bdi>{songHeadline(song)}</bdi>
          </Link>
          <span className="text-xs text-muted tabular-nums" dir="ltr">
            {formatClockTime(song.durationSeconds)}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** A copy of the songs in a random order (Fisher–Yates). */
export function shuffled<T>(list: readonly T[]): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
