import { RotateCw } from 'lucide-react';
import { useT } from '../lib/i18n/i18n.store';
import { Button, type ButtonProps } from './ui/button';
import { Spinner } from './ui/spinner';

/** 'Try Again' for a failed query: refetches, with a spinner while it runs. */
export function TryAgainButton({ query, variant, size }: { query: { refetch: () => unknown; isFetching: boolean } } & Pick<ButtonProps, 'variant' | 'size'>) {
  const t = useT();
  return (
    <Button variant={variant} size={size} onClick={() => void query.refetch()} disabled={query.isFetching}>
      {query.isFetching ? <Spinner /> : <RotateCw aria-hidden className="size-4" />}
      {t('tryAgain')}
    </Button>
  );
}
