import type { UseQueryResult } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { StatusPanel } from '../../components/status-panel';
import { TryAgainButton } from '../../components/try-again-button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';

/** An artist's or an album's page while it loads or when it failed (Try again); then the page itself. */
export function BrowseDetail<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const t = useT();
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-3 pt-40 text-sm text-muted">
        <Spinner className="size-5 text-accent" />
        {t('browseLoading')}
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 pt-32">
        <StatusPanel
          as="h1"
          role="alert"
          tone="danger"
          icon={<TriangleAlert aria-hidden />}
          title={t('browseNotFound')}
          actions={<TryAgainButton query={query} />}
        >
          {query.error.message}
        </StatusPanel>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

/** The head of an artist's or an album's page: the picture, the name, lines about it, then its buttons. */
export function BrowseHeader({ image, title, children, actions }: { image: ReactNode; title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <header className="flex flex-col items-center gap-6 sm:flex-row sm:items-end">
      {image}
      <div className="flex w-full min-w-0 flex-col gap-2">
        <h1 className="text-3xl font-extrabold tracking-tight break-words sm:text-4xl">
          <bdi>{title}</bdi>
        </h1>
        {children}
        <div className="mt-2 flex flex-wrap gap-2">{actions}</div>
      </div>
    </header>
  );
}
