import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

/** One card of the admin page: a heading (a landmark region of that name), maybe an action beside it, its body. */
export function AdminSection({ id, icon, title, action, children }: { id: string; icon: ReactNode; title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card className="flex flex-col gap-4 p-5 shadow-none sm:p-6" role="region" aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-base font-bold [&_svg]:size-4.5 [&_svg]:text-fuchsia-300">
          {icon}
          {title}
        </h2>
        {action}
      </div>
      {children}
    </Card>
  );
}

/** What a section shows while it loads or when it cannot. */
export function SectionState({ children }: { children: ReactNode }) {
  return <p className="text-sm text-muted">{children}</p>;
}
