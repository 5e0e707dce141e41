import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export const buttonVariants = cva(
  'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-xl text-sm font-semibold transition-[color,background-color,box-shadow,opacity,transform] duration-200 outline-none select-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-60 active:scale-[0.98] [&_svg]:pointer-events-none [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-accent-gradient text-white shadow-lg shadow-fuchsia-900/30 hover:shadow-fuchsia-700/40 hover:brightness-110',
        secondary: 'bg-surface-raised text-foreground ring-1 ring-border hover:bg-input',
        outline: 'border border-border bg-transparent text-foreground hover:border-accent/60 hover:bg-white/5',
        ghost: 'text-muted hover:bg-white/5 hover:text-foreground',
        danger: 'bg-danger/10 text-danger ring-1 ring-danger/30 hover:bg-danger/20',
        link: 'h-auto rounded-md px-0 text-accent underline-offset-4 hover:text-ring hover:underline active:scale-100',
      },
      size: {
        sm: 'h-9 px-3 text-sm',
        md: 'h-11 px-5',
        lg: 'h-12 px-7 text-base',
        icon: 'size-10 rounded-full',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  /** Renders the child element (a link, say) with the button's look. */
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return <Component className={cn(buttonVariants({ variant, size }), className)} type={asChild ? type : (type ?? 'button')} {...props} />;
}
