import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A placeholder block that pulses while its content loads. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-xl bg-white/[0.06]', className)} {...props} />;
}
