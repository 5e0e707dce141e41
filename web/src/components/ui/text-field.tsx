import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { FieldError } from './field-error';
import { Input } from './input';
import { Label } from './label';

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  id: string;
  label: ReactNode;
  error?: string | null;
  /** Next to the label, at the far end (a "Forgot password?" link, say). */
  labelAside?: ReactNode;
  /** Inside the input at its end (a show/hide toggle, say). */
  trailing?: ReactNode;
  /** Under the input, above the error. */
  below?: ReactNode;
  inputClassName?: string;
}

/** Label, input and error message, wired together for assistive technology. */
export function TextField({ id, label, error, labelAside, trailing, below, className, inputClassName, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      <div className="relative">
        <Input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cn(trailing ? 'pe-12' : undefined, inputClassName)}
          {...inputProps}
        />
        {trailing ? <div className="absolute inset-y-0 end-0 flex items-center pe-1.5">{trailing}</div> : null}
      </div>
      {below}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
