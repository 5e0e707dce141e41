import type { Song } from '@encore/common/library.contract';
import { Play, Square } from 'lucide-react';
import { Link } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { player, usePlayer } from '../../player/player.store';

export interface ChosenSong {
  song: Song;
  /** Why it was chosen ("fast, bright, major key"); null when the server gave none. */
  reason: string | null;
}

/**
 * The player's `source` for a playlist's queue; the same spelling the playlists feature uses,
 * so its page and its notices (finished, unplayable) know the queue as the playlist's own.
 */
export const generatedPlaylistSource = (playlistId: number) => `playlist:${playlistId}`;

/** The songs of a generated playlist, each with its reason and a play button (plays on from it). */
export function GeneratedSongList({ playlistId, songs }: { playlistId: number; songs: readonly ChosenSong[] }) {
  return (
    <ol className="flex flex-col gap-1">
      {songs.map((entry, index) => (
        <GeneratedSongRow key={entry.song.id} playlistId={playlistId} songs={songs} index={index} />
      ))}
    </ol>
  );
}

function GeneratedSongRow({ playlistId, songs, index }: { playlistId: number; songs: readonly ChosenSong[]; index: number }) {
  const t = useT();
  const { song, reason } = songs[index]!;
  const source = generatedPlaylistSource(playlistId);
  const isCurrent = usePlayer((state) => state.source === source && state.current?.id === song.id);
  const subtitle = song.artist ?? null;

  // SPEC 4: clicking the song that is playing closes the player; the bar's own button pauses.
  const play = () => {
    if (isCurrent) player.close();
    else
      player.playQueue(
        songs.map((entry) => entry.song),
        index,
        { wrap: false, skipUnplayable: true, source },
      );
  };

  return (
    <li
      data-testid="generated-song"
      className={cn(
        'grid grid-cols-[auto_auto_minmax(0,1fr)] items-center gap-3 rounded-xl px-2 py-2 transition-colors hover:bg-white/[0.04] sm:px-3',
        isCurrent && 'bg-accent/10 hover:bg-accent/15',
      )}
    >
      <button
        type="button"
        aria-label={isCurrent ? t('stopSong', { title: song.displayName }) : t('playSong', { title: song.displayName })}
        title={isCurrent ? t('playerClose') : undefined}
        onClick={play}
        className="grid size-9 cursor-pointer place-items-center rounded-full bg-accent-gradient text-white shadow-md shadow-fuchsia-950/40 outline-none hover:brightness-110 focus-visible:ring-2 focus-visible:ring-ring"
      >
        {isCurrent ? (
          <Square aria-hidden className="size-3.5 fill-current" />
        ) : (
          <Play aria-hidden className="size-4 translate-x-[1px] fill-current rtl:-translate-x-[1px]" />
        )}
      </button>
      <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="size-10 rounded-lg" />
      <div className="flex min-w-0 flex-col gap-0.5">
        <p className="truncate text-sm font-semibold" title={song.displayName}>
          <Link to={`/music/${song.id}`} className="rounded outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring">
            <bdi>{songHeadline(song)}</bdi>
          </Link>
          {subtitle ? (
            <span className="font-normal text-muted">
              {' · '}
              <bdi>{subtitle}</bdi>
            </span>
          ) : null}
        </p>
        {reason ? (
          <p dir="auto" data-testid="song-reason" className="truncate text-xs text-fuchsia-200/80 rtl:text-right" title={reason}>
            {reason}
          </p>
        ) : null}
      </div>
    </li>
  );
}
