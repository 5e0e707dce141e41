import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** SPEC 9: tooltips open after 700 ms. */
export const TOOLTIP_DELAY_MS = 700;

interface TooltipProps {
  content: string;
  children: ReactNode;
  className?: string;
  delayMs?: number;
}

/**
 * A tooltip shown after a hover or keyboard focus has lasted `delayMs` and hidden when it ends
 * (or on Escape). The wrapper is focusable, so the tip reaches keyboard users even when what it
 * explains is disabled.
 */
export function Tooltip({ content, children, className, delayMs = TOOLTIP_DELAY_MS }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), delayMs);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };

  return (
    <div
      tabIndex={0}
      aria-describedby={open ? id : undefined}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(event) => {
        if (event.key === 'Escape') hide();
      }}
      className={cn('relative rounded-(--radius-card) outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
    >
      {children}
      {open ? (
        <div
          id={id}
          role="tooltip"
          className="absolute inset-x-4 -top-2 z-20 -translate-y-full rounded-lg bg-foreground px-3 py-2 text-center text-xs font-medium text-background shadow-lg"
        >
          {content}
        </div>
      ) : null}
    </div>
  );
}
