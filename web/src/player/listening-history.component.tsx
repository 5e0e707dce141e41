import type { SongListEntry } from '@encore/common/library.contract';
import { listeningEndpoints } from '@encore/common/listening.contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Play } from 'lucide-react';
import { Link } from 'react-router';
import { CoverArt } from '../components/cover-art';
import type { ResponseSchema } from '../lib/api-client';
import { callEndpoint } from '../lib/endpoint-client';
import { cn } from '../lib/cn';
import { translate, useT } from '../lib/i18n/i18n.store';
import { songHeadline } from '../lib/song-headline';
import { listeningKeys, onPlayCounted } from './listening-services';
import { player, usePlayer } from './player.store';

/** How many songs each row shows. */
export const HISTORY_ROW_SIZE = 12;

type HistorySong = SongListEntry & { playCount?: number; lastPlayedAt?: string | null };

const historyAnswer: ResponseSchema<HistorySong[]> = {
  safeParse(value) {
    const list = Array.isArray(value) ? value : value && typeof value === 'object' ? (value as { songs?: unknown }).songs : null;
    if (!Array.isArray(list)) return { success: false, error: new Error('Not a list of songs') };
    return {
      success: true,
      data: list.filter((song): song is HistorySong => !!song && typeof song === 'object' && typeof (song as SongListEntry).id === 'number'),
    };
  },
};

function useHistory(kind: 'recent' | 'most') {
  return useQuery({
    queryKey: listeningKeys.history(kind),
    queryFn: ({ signal }) =>
      callEndpoint(listeningEndpoints.history, {
        query: { kind, limit: HISTORY_ROW_SIZE },
        schema: historyAnswer,
        fallbackMessage: translate('loadHistoryFailed'),
        signal,
      }),
    staleTime: 30_000,
  });
}

/** "Recently played" and "Most played" (issue 30): the signed-in user's own plays, on the music page. */
export function ListeningHistory({ className }: { className?: string }) {
  const client = useQueryClient();
  useEffect(() => onPlayCounted(() => void client.invalidateQueries({ queryKey: listeningKeys.all })), [client]);
  const recent = useHistory('recent');
  const most = useHistory('most');
  const recentSongs = recent.data ?? [];
  const mostSongs = most.data ?? [];
  if (recentSongs.length === 0 && mostSongs.length === 0) return null;
  return (
    <div className={cn('flex flex-col gap-6', className)}>
      <HistoryRow kind="recent" songs={recentSongs} />
      <HistoryRow kind="most" songs={mostSongs} />
    </div>
  );
}

function HistoryRow({ kind, songs }: { kind: 'recent' | 'most'; songs: HistorySong[] }) {
  const t = useT();
  if (songs.length === 0) return null;
  const title = t(kind === 'recent' ? 'recentlyPlayed' : 'mostPlayed');
  const headingId = `history-${kind}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-lg font-bold tracking-tight">
        {title}
      </h2>
      <ul className="-mx-1 flex snap-x gap-3 overflow-x-auto px-1 pb-2" data-testid={`history-${kind}`}>
        {songs.map((song) => (
          <li key={song.id} className="w-36 shrink-0 snap-start sm:w-40">
            <HistoryTile song={song} list={songs} kind={kind} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function HistoryTile({ song, list, kind }: { song: HistorySong; list: HistorySong[]; kind: 'recent' | 'most' }) {
  const t = useT();
  const isCurrent = usePlayer((state) => state.current?.id === song.id);
  const play = () => {
    if (isCurrent) player.toggle();
    else player.playQueue(list, list.indexOf(song), { source: `history:${kind}`, wrap: false });
  };
  return (
    <article className={cn('group relative flex flex-col gap-2 rounded-xl p-1.5 transition-colors hover:bg-white/[0.04]', isCurrent && 'bg-accent/10')}>
      <div className="relative">
        <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="aspect-square w-full rounded-lg" />
        <button
          type="button"
          onClick={play}
          aria-label={`${t('playerPlay')}: ${song.displayName}`}
          className="absolute end-2 bottom-2 z-10 grid size-10 cursor-pointer place-items-center rounded-full bg-white text-background shadow-lg outline-none focus-visible:ring-2 focus-visible:ring-ring [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:focus-visible:opacity-100"
        >
          <Play aria-hidden className="size-4 translate-x-px fill-current" />
        </button>
      </div>
      <div className="min-w-0 px-0.5">
        <Link
          to={`/music/${song.id}`}
          className="block truncate text-sm font-semibold outline-none hover:underline focus-visible:underline"
          title={song.displayName}
        >
          <bdi>{songHeadline(song)}</bdi>
        </Link>
        <p className="truncate text-xs text-muted">
          <bdi>{song.artist ?? t('unknownArtist')}</bdi>
          {kind === 'most' && song.playCount ? <span className="text-subtle"> · {t('playCountLabel', { count: String(song.playCount) })}</span> : null}
        </p>
      </div>
    </article>
  );
}
