import type { PlaylistSummary } from '@encore/common/playlists.contract';
import { Link } from 'react-router';
import { AiGeneratedBadge } from '../../components/ai-generated-badge';
import { cn } from '../../lib/cn';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { usePlayer } from '../../player/player.store';
import { PlaylistCover } from './playlist-cover.component';
import { playlistSource } from './playlist-playback';

/** A playlist in the grid: name, description and song count; opens /playlists/{id}. */
export function PlaylistCard({ playlist }: { playlist: PlaylistSummary }) {
  const t = useT();
  const countOf = useTCount();
  const playing = usePlayer((state) => state.source === playlistSource(playlist.id) && state.current !== null);
  const count = countOf('playlistSongCount', playlist.songCount);
  const preview = playlist.songs.slice(0, 3).map((song) => song.displayName);
  return (
    <article
      className={cn(
        'group relative flex h-full min-w-0 flex-col gap-4 rounded-2xl border border-border bg-surface/70 p-4 sm:p-5 transition-[border-color,transform,box-shadow] duration-200 hover:-translate-y-0.5 hover:border-accent/50 hover:shadow-xl hover:shadow-fuchsia-950/30 focus-within:border-accent/50',
        playing && 'border-accent/70',
      )}
    >
      <div className="flex items-start gap-4">
        <PlaylistCover songs={playlist.songs} className="size-20" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 dir="auto" className="line-clamp-2 text-lg leading-snug font-bold tracking-tight break-words rtl:text-right" title={playlist.name}>
            <Link
              to={`/playlists/${playlist.id}`}
              className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
            >
              {playlist.name}
            </Link>
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-fuchsia-300">
            {count}
            {playlist.aiPrompt ? <AiGeneratedBadge className="px-2 py-0.5 text-[0.7rem]" /> : null}
          </p>
          {playlist.description ? (
            <p dir="auto" className="line-clamp-2 text-sm leading-snug text-muted rtl:text-right">
              {playlist.description}
            </p>
          ) : null}
          {playlist.aiPrompt ? (
            <p className="line-clamp-1 text-xs text-subtle" title={playlist.aiPrompt}>
              <span className="sr-only">{t('aiPromptHeading')}: </span>
              <q dir="auto" className="italic">
                {playlist.aiPrompt}
              </q>
            </p>
          ) : null}
        </div>
      </div>
      {preview.length > 0 ? (
        <p className="mt-auto truncate border-t border-border pt-3 text-xs text-subtle">
          {preview.map((name, index) => (
            <span key={index}>
              {index > 0 ? ' · ' : null}
              <bdi>{name}</bdi>
            </span>
          ))}
        </p>
      ) : null}
    </article>
  );
}
