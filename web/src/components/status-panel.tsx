import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

interface StatusPanelProps {
  icon: ReactNode;
  title: string;
  /** The heading level fits the page: h1 when the panel is the whole page. */
  as?: 'h1' | 'h2';
  children?: ReactNode;
  /** Buttons under the text. */
  actions?: ReactNode;
  tone?: 'accent' | 'danger';
  /** 'alert' for failures (announced at once), 'status' for the rest. */
  role?: 'alert' | 'status';
  className?: string;
}

const tones = {
  accent: 'bg-accent/10 text-fuchsia-300 ring-accent/30',
  danger: 'bg-rose-400/10 text-danger ring-rose-400/30',
} as const;

/** A centred state of a page or list: loading, empty, not found, failed. */
export function StatusPanel({ icon, title, as: Heading = 'h2', children, actions, tone = 'accent', role, className }: StatusPanelProps) {
  return (
    <div role={role} className={cn('flex flex-col items-center gap-4 px-4 py-14 text-center', className)}>
      <span className={cn('grid size-16 place-items-center rounded-2xl ring-1 [&_svg]:size-8', tones[tone])}>{icon}</span>
      <Heading className="text-xl font-bold tracking-tight sm:text-2xl">{title}</Heading>
      {children ? <div className="max-w-md text-sm leading-relaxed text-muted">{children}</div> : null}
      {actions ? <div className="mt-1 flex flex-wrap justify-center gap-3">{actions}</div> : null}
    </div>
  );
}
