import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';

export interface PaginationLabels {
  /** Names the navigation landmark. */
  navigation: string;
  previous: string;
  next: string;
  /** Accessible names that include the visible words, e.g. "Previous page", so they differ from a player's Next. */
  previousPage: string;
  nextPage: string;
  /** The accessible name of a numbered button, e.g. "Page 3". */
  page: (page: number) => string;
}

interface PaginationProps {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  labels: PaginationLabels;
  className?: string;
}

/**
 * The pages to show as buttons: all of them when few, otherwise the first, the last and the
 * current one with its neighbours, `null` marking a gap.
 */
export function visiblePages(page: number, pageCount: number): (number | null)[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const shown = new Set([1, pageCount, page - 1, page, page + 1]);
  if (page <= 3) [2, 3, 4].forEach((value) => shown.add(value));
  if (page >= pageCount - 2) [pageCount - 3, pageCount - 2, pageCount - 1].forEach((value) => shown.add(value));
  const sorted = [...shown].filter((value) => value >= 1 && value <= pageCount).sort((a, b) => a - b);
  const result: (number | null)[] = [];
  sorted.forEach((value, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && value - previous > 1) result.push(null);
    result.push(value);
  });
  return result;
}

/** Previous, numbered pages and Next. */
export function Pagination({ page, pageCount, onPageChange, labels, className }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={labels.navigation} className={cn('flex flex-wrap items-center justify-center gap-1.5', className)}>
      <Button variant="ghost" size="sm" aria-label={labels.previousPage} disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        <ChevronLeft aria-hidden className="size-4 rtl:rotate-180" />
        {labels.previous}
      </Button>
      <ul className="flex flex-wrap items-center gap-1">
        {visiblePages(page, pageCount).map((value, index) =>
          value === null ? (
            <li key={`gap-${index}`} aria-hidden className="px-1 text-subtle">
              …
            </li>
          ) : (
            <li key={value}>
              <Button
                variant={value === page ? 'primary' : 'ghost'}
                size="sm"
                aria-label={labels.page(value)}
                aria-current={value === page ? 'page' : undefined}
                onClick={() => onPageChange(value)}
                className="min-w-9 px-2 tabular-nums"
              >
                {value}
              </Button>
            </li>
          ),
        )}
      </ul>
      <Button variant="ghost" size="sm" aria-label={labels.nextPage} disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        {labels.next}
        <ChevronRight aria-hidden className="size-4 rtl:rotate-180" />
      </Button>
    </nav>
  );
}
