import * as ProgressPrimitive from '@radix-ui/react-progress';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

interface ProgressProps extends ComponentProps<typeof ProgressPrimitive.Root> {
  value: number;
  indicatorClassName?: string;
}

/** A bar whose filled width is `value` percent; works the same in both text directions. */
export function Progress({ className, value, indicatorClassName, ...props }: ProgressProps) {
  const clamped = Math.min(100, Math.max(0, value));
  return (
    <ProgressPrimitive.Root value={clamped} className={cn('relative h-1.5 w-full overflow-hidden rounded-full bg-white/10', className)} {...props}>
      <ProgressPrimitive.Indicator
        className={cn('h-full rounded-full bg-accent-gradient transition-[width] duration-500 ease-out', indicatorClassName)}
        style={{ width: `${clamped}%` }}
      />
    </ProgressPrimitive.Root>
  );
}
