import type { ReactNode } from 'react';
import { PageGlow } from './page-glow';

/**
 * The top of a list page (music, playlists, clips): the glow, the title with a line under it,
 * and the page's main action at the end of the row.
 */
export function ListPageHeader({ title, subtitle, action }: { title: ReactNode; subtitle: ReactNode; action: ReactNode }) {
  return (
    <>
      <PageGlow className="top-10 h-[320px] max-w-3xl" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
          <p className="text-sm text-muted">{subtitle}</p>
        </div>
        {action}
      </header>
    </>
  );
}
