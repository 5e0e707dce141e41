import type { Playlist } from '@encore/common/playlists.contract';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { useKeepFresh } from './playlists.queries';

/**
 * The owner's Keep fresh switch of an AI playlist made from a prompt (issue 41): on, the playlist
 * is ranked again when songs are added or analysed. Nothing for a playlist that cannot be.
 */
export function KeepFreshSwitch({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const keepFresh = useKeepFresh(playlist.id);
  if (playlist.keepFresh === null || playlist.keepFresh === undefined) return null;
  // While the change is on its way the switch shows what was asked.
  const checked = keepFresh.isPending ? keepFresh.variables : playlist.keepFresh;
  return (
    <div className="flex max-w-prose items-center justify-between gap-4 rounded-xl border border-border bg-surface/60 px-4 py-3">
      <span className="flex flex-col gap-0.5">
        <span id={`keep-fresh-${playlist.id}`} className="text-sm font-semibold">
          {t('keepFresh')}
        </span>
        <span id={`keep-fresh-${playlist.id}-description`} className="text-xs text-muted">
          {t('keepFreshDescription')}
        </span>
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`keep-fresh-${playlist.id}`}
        aria-describedby={`keep-fresh-${playlist.id}-description`}
        disabled={keepFresh.isPending}
        onClick={() => keepFresh.mutate(!checked)}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-wait',
          checked ? 'bg-accent-gradient' : 'bg-white/15',
        )}
      >
        <span className={cn('absolute size-5 rounded-full bg-white shadow transition-all', checked ? 'inset-s-[22px]' : 'inset-s-0.5')} />
      </button>
    </div>
  );
}
