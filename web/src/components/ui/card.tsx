import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('rounded-(--radius-card) border border-border bg-surface/80 shadow-2xl shadow-black/40 backdrop-blur-xl', className)} {...props} />;
}
