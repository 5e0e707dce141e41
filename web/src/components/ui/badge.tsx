import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Badge({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border border-accent/30 bg-accent/10 px-3 py-1 text-xs font-semibold tracking-wide text-fuchsia-200',
        className,
      )}
      {...props}
    />
  );
}
