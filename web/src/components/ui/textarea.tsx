import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'min-h-24 w-full min-w-0 resize-y rounded-xl border border-border bg-input/70 px-3.5 py-2.5 text-[0.95rem] leading-relaxed text-foreground shadow-inner shadow-black/20 transition-[border-color,box-shadow] outline-none placeholder:text-subtle',
        'hover:border-accent/40 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 focus-visible:outline-none',
        'aria-invalid:border-danger/70 aria-invalid:focus-visible:ring-danger/25',
        'disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}
