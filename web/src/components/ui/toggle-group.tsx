import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface ToggleGroupProps<V extends string> extends Omit<ComponentProps<'div'>, 'onChange'> {
  /** Names the group for assistive technology. */
  label: string;
  value: V;
  onValueChange: (value: V) => void;
  items: readonly { value: V; label: string; icon?: ReactNode }[];
  /** Show only the icons ('always', or 'narrow' below the sm breakpoint); labels stay the accessible names. */
  iconOnly?: boolean | 'narrow';
}

/** A row of pressed/unpressed buttons of which exactly one is on (a view switch, say). */
export function ToggleGroup<V extends string>({ label, value, onValueChange, items, iconOnly = false, className, ...props }: ToggleGroupProps<V>) {
  return (
    <div
      role="group"
      aria-label={label}
      className={cn('inline-flex items-center gap-1 rounded-xl bg-background/60 p-1 ring-1 ring-border', className)}
      {...props}
    >
      {items.map((item) => {
        const pressed = item.value === value;
        return (
          <button
            key={item.value}
            type="button"
            aria-pressed={pressed}
            aria-label={iconOnly === true ? item.label : undefined}
            title={iconOnly ? item.label : undefined}
            onClick={() => onValueChange(item.value)}
            className={cn(
              'inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-muted transition-colors outline-none',
              'hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4',
              pressed && 'bg-accent-gradient text-white shadow-md shadow-fuchsia-900/30 hover:text-white',
            )}
          >
            {item.icon}
            {iconOnly === true ? null : iconOnly === 'narrow' ? <span className="sr-only sm:not-sr-only">{item.label}</span> : item.label}
          </button>
        );
      })}
    </div>
  );
}
