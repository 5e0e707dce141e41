import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The quiet 'Back to …' link above a detail page's content; its arrow turns in right-to-left. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex w-fit items-center gap-2 rounded-lg text-sm font-medium text-muted outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ArrowLeft aria-hidden className="size-4 rtl:rotate-180" />
      {children}
    </Link>
  );
}
