import { useId } from 'react';
import { cn } from '../lib/cn';

/** Encore's mark: an "E" drawn as three level bars of an equaliser on the accent gradient. */
export function LogoMark({ className }: { className?: string }) {
  const gradient = `encore-logo-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <svg viewBox="0 0 64 64" aria-hidden focusable="false" className={cn('size-9 shrink-0', className)}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b5cf6" />
          <stop offset="1" stopColor="#d946ef" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="18" fill={`url(#${gradient})`} />
      <rect x="17" y="17" width="6.5" height="30" rx="3.25" fill="#fff" />
      <rect x="17" y="17" width="30" height="6.5" rx="3.25" fill="#fff" />
      <rect x="17" y="28.75" width="21" height="6.5" rx="3.25" fill="#fff" fillOpacity="0.85" />
      <rect x="17" y="40.5" width="30" height="6.5" rx="3.25" fill="#fff" />
      <circle cx="45" cy="32" r="3.25" fill="#fff" fillOpacity="0.85" />
    </svg>
  );
}
