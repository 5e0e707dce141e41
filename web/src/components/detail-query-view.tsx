import type { UseQueryResult } from '@tanstack/react-query';
import { FileQuestion, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { isApiError } from '../lib/api-client';
import { StatusPanel } from './status-panel';
import { Spinner } from './ui/spinner';
import { TryAgainButton } from './try-again-button';

interface DetailQueryViewProps<T> {
  query: UseQueryResult<T>;
  loadingText: string;
  notFoundTitle: string;
  notFoundBody: string;
  errorTitle: string;
  /** The way back to the list, offered when the item is missing or failed to load. */
  back: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * The states of a page that shows one item (a song, a playlist): loading, not found (404),
 * failed with the message and Try Again, then the item itself.
 */
export function DetailQueryView<T>({ query, loadingText, notFoundTitle, notFoundBody, errorTitle, back, children }: DetailQueryViewProps<T>) {
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-3 py-32 text-sm text-muted">
        <Spinner className="size-5 text-accent" />
        {loadingText}
      </p>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <StatusPanel as="h1" role="alert" icon={<FileQuestion aria-hidden />} title={notFoundTitle} actions={back} className="py-24">
          {notFoundBody}
        </StatusPanel>
      );
    }
    return (
      <StatusPanel
        as="h1"
        role="alert"
        tone="danger"
        icon={<TriangleAlert aria-hidden />}
        title={errorTitle}
        className="py-24"
        actions={
          <>
            <TryAgainButton query={query} />
            {back}
          </>
        }
      >
        {query.error.message}
      </StatusPanel>
    );
  }
  return children(query.data);
}
