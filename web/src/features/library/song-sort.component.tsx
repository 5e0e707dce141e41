import { SONG_SORTS, type SongSort } from '@encore/common/library.contract';
import { ArrowDownUp } from 'lucide-react';
import { useId } from 'react';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { SORT_LABELS } from './song-sort';

/** The music page's order: recently added, title, artist or album (the server sorts). */
export function SongSortSelect({ value, onChange, className }: { value: SongSort; onChange: (sort: SongSort) => void; className?: string }) {
  const t = useT();
  const id = useId();
  return (
    <div className={cn('relative flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {t('musicSortLabel')}
      </label>
      <ArrowDownUp aria-hidden className="pointer-events-none absolute start-3 size-4 text-muted" />
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value as SongSort)}
        className="h-11 w-full cursor-pointer rounded-xl border border-border bg-input/70 ps-9 pe-3 text-[0.95rem] text-foreground shadow-inner shadow-black/20 outline-none hover:border-accent/40 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25"
      >
        {SONG_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {t(SORT_LABELS[sort])}
          </option>
        ))}
      </select>
    </div>
  );
}
