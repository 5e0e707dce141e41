import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { StatusPanel } from '../../components/status-panel';
import { TryAgainButton } from '../../components/try-again-button';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';

/** A paged list's states: loading, failed (try again), empty, then its items and a Load more button. */
export function PagedList({ query, count, children }: { query: UseInfiniteQueryResult<unknown>; count: number; children: ReactNode }) {
  const t = useT();
  if (query.isPending) {
    return (
      <p role="status" className="mt-10 flex items-center justify-center gap-3 text-sm text-muted">
        <Spinner className="size-5 text-accent" />
        {t('browseLoading')}
      </p>
    );
  }
  if (query.isError) {
    return (
      <StatusPanel role="alert" tone="danger" icon={<TriangleAlert aria-hidden />} title={t('browseLoadFailed')} actions={<TryAgainButton query={query} />}>
        {query.error instanceof Error ? query.error.message : null}
      </StatusPanel>
    );
  }
  if (count === 0) return <p className="mt-10 text-center text-sm text-muted">{t('browseEmpty')}</p>;
  return (
    <>
      {children}
      {query.hasNextPage ? (
        <div className="mt-8 flex justify-center">
          <Button variant="outline" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? <Spinner className="size-4" /> : null}
            {t('browseLoadMore')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
