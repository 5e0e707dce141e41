import type { SongListEntry } from '@encore/common/library.contract';
import { Link } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { AlbumLink, SongCredits } from '../../components/song-credits';
import { formatClockTime } from '../../lib/clock-time.format';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/file-size.format';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatShortDate } from '../../lib/short-date.format';
import { songHeadline } from '../../lib/song-headline';
import type { QueuePages } from '../../player/player-state';
import { usePlayer } from '../../player/player.store';
import { SongQueueMenu } from '../../player/song-queue-menu.component';
import { LikeButton } from './like-button.component';
import { NowPlayingBars, SongPlayButton } from './song-play-button.component';

interface SongItemProps {
  song: SongListEntry;
  list: readonly SongListEntry[];
  /** The other pages of the list, for the player's next/previous. */
  pages?: QueuePages | undefined;
}

/**
 * The compact view's columns, shared by its heading row and its rows: play, cover, title and
 * artist, album (only when a song on the page has one, so no empty column gapes), time, size,
 * date, like. A phone keeps play, cover, title, time and like.
 */
export function compactColumns(withAlbum: boolean): string {
  return withAlbum
    ? 'grid-cols-[auto_auto_minmax(0,1fr)_auto_auto] sm:grid-cols-[2.25rem_2.5rem_minmax(0,1.4fr)_minmax(0,1fr)_3.5rem_4.5rem_4rem_4.5rem]'
    : 'grid-cols-[auto_auto_minmax(0,1fr)_auto_auto] sm:grid-cols-[2.25rem_2.5rem_minmax(0,1fr)_3.5rem_4.5rem_4rem_4.5rem]';
}

function useNowPlaying(song: SongListEntry) {
  const isCurrent = usePlayer((state) => state.current?.id === song.id);
  const isPlaying = usePlayer((state) => state.current?.id === song.id && state.isPlaying);
  return { isCurrent, isPlaying };
}

/** A song in the grid view: cover, title, artist and album (links to their pages), duration, size and date; the card links to /music/{id}. */
export function SongCard({ song, list, pages }: SongItemProps) {
  const t = useT();
  const language = useLanguage();
  const { isCurrent, isPlaying } = useNowPlaying(song);
  return (
    <article
      className={cn(
        'group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-surface/70 transition-[border-color,transform,box-shadow] duration-200 hover:-translate-y-0.5 hover:border-accent/50 hover:shadow-xl hover:shadow-fuchsia-950/30 focus-within:border-accent/50',
        isCurrent && 'border-accent/70',
      )}
    >
      <div className="relative">
        <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="aspect-square w-full" />
        <div className="pointer-events-none absolute inset-0 bg-gradient-to-t from-black/55 via-transparent to-black/20" />
        {isCurrent ? (
          <span className="absolute start-3 top-3 flex items-center gap-1.5 rounded-full bg-black/60 px-2.5 py-1 text-xs font-semibold text-fuchsia-100 backdrop-blur-md">
            <NowPlayingBars playing={isPlaying} />
            <span className="sr-only sm:not-sr-only">{t('nowPlaying')}</span>
          </span>
        ) : null}
        <LikeButton song={song} variant="card" className="absolute end-3 top-3" />
        <SongPlayButton
          song={song}
          list={list}
          pages={pages}
          className={cn(
            'absolute end-3 bottom-3 size-12 [@media(hover:hover)]:translate-y-1 [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:translate-y-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:focus-visible:translate-y-0 [@media(hover:hover)]:focus-visible:opacity-100',
            isCurrent && '[@media(hover:hover)]:translate-y-0 [@media(hover:hover)]:opacity-100',
          )}
        />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3.5">
        <h3 className="line-clamp-2 leading-snug font-semibold break-words" title={song.displayName}>
          <Link
            to={`/music/${song.id}`}
            className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            <bdi>{songHeadline(song)}</bdi>
          </Link>
        </h3>
        <SongCredits song={song} withAlbum className="text-sm text-muted" />
        <p className="mt-auto flex items-center justify-between gap-2 pt-1.5 text-xs text-subtle tabular-nums">
          <span dir="ltr" className="truncate">
            {[song.durationSeconds !== null ? formatClockTime(song.durationSeconds) : null, formatFileSize(song.size)].filter(Boolean).join(' · ')}
          </span>
          {/* Two cards abreast on a phone leave room for length and size only; the page has the date. */}
          <span className="flex shrink-0 items-center gap-1">
            <time dateTime={song.uploadedAt} className="hidden min-[420px]:block">
              {formatShortDate(song.uploadedAt, language)}
            </time>
            <SongQueueMenu song={song} className="-me-1.5 size-7" />
          </span>
        </p>
      </div>
    </article>
  );
}

/** A song in the compact view: one dense row with the same facts and actions. */
export function SongRow({ song, list, pages, withAlbum }: SongItemProps & { withAlbum: boolean }) {
  const language = useLanguage();
  const { isCurrent, isPlaying } = useNowPlaying(song);
  return (
    <article
      className={cn(
        'group relative grid items-center gap-3 rounded-xl px-2.5 py-2 transition-colors hover:bg-white/[0.04] focus-within:bg-white/[0.04] sm:px-3',
        compactColumns(withAlbum),
        isCurrent && 'bg-accent/10 hover:bg-accent/15',
      )}
    >
      <SongPlayButton song={song} list={list} pages={pages} className="size-9" />
      <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="size-10 rounded-lg" />
      <div className="min-w-0">
        <h3 className="flex items-center gap-2 truncate text-sm font-semibold" title={song.displayName}>
          {isCurrent ? <NowPlayingBars playing={isPlaying} className="shrink-0" /> : null}
          <Link
            to={`/music/${song.id}`}
            className="truncate outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            <bdi>{songHeadline(song)}</bdi>
          </Link>
        </h3>
        <SongCredits song={song} className="text-xs text-muted" />
      </div>
      {withAlbum ? (
        <p className="hidden truncate text-sm text-muted sm:block">
          <AlbumLink song={song} />
        </p>
      ) : null}
      <span className="text-end text-xs text-muted tabular-nums sm:text-sm">{song.durationSeconds !== null ? formatClockTime(song.durationSeconds) : ''}</span>
      <span className="hidden text-end text-sm text-subtle tabular-nums sm:block">
        <bdi>{formatFileSize(song.size)}</bdi>
      </span>
      <time dateTime={song.uploadedAt} className="hidden text-end text-sm text-subtle sm:block">
        {formatShortDate(song.uploadedAt, language)}
      </time>
      <div className="flex items-center justify-end">
        <LikeButton song={song} />
        <SongQueueMenu song={song} />
      </div>
    </article>
  );
}
