import { cn } from '../lib/cn';

/** The soft violet glow behind a page's heading; `className` places and sizes it (top, h, max-w). */
export function PageGlow({ className }: { className: string }) {
  return (
    <div
      aria-hidden
      className={cn(
        'pointer-events-none absolute inset-x-0 -z-10 mx-auto rounded-full bg-[radial-gradient(closest-side,rgba(157,68,240,0.24),transparent)] blur-2xl',
        className,
      )}
    />
  );
}
