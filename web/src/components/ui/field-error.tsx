import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface FieldErrorProps {
  id: string;
  children?: ReactNode;
  className?: string;
}

/** The message under a field; linked to the input through aria-describedby. */
export function FieldError({ id, children, className }: FieldErrorProps) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className={cn('flex items-center gap-1.5 text-[0.8rem] text-danger', className)}>
      <CircleAlert aria-hidden className="size-3.5" />
      <span>{children}</span>
    </p>
  );
}
