import type { ComponentProps, CSSProperties } from 'react';
import { cn } from '../../lib/cn';

export interface SliderProps extends Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange' | 'min' | 'max' | 'step' | 'size'> {
  value: number;
  min?: number;
  max: number;
  step?: number;
  onValueChange: (value: number) => void;
  size?: 'sm' | 'md';
}

/**
 * A range slider on the native `<input type="range">`: keyboard, pointer and assistive
 * technology work as the platform made them, a click anywhere on the track sets the value in
 * proportion, and it runs right-to-left in Hebrew unless given `dir="ltr"` (playback position
 * runs left to right in every language). The filled part is painted from `--fill`.
 */
export function Slider({ value, min = 0, max, step = 1, onValueChange, size = 'sm', className, style, ...props }: SliderProps) {
  const span = max - min;
  const fill = span > 0 ? ((Math.min(max, Math.max(min, value)) - min) / span) * 100 : 0;
  return (
    <input
      type="range"
      min={min}
      max={span > 0 ? max : min + 1}
      step={step}
      value={Number.isFinite(value) ? value : min}
      onChange={(event) => onValueChange(Number(event.currentTarget.value))}
      data-size={size}
      className={cn('range-slider', className)}
      style={{ '--fill': `${fill}%`, ...style } as CSSProperties}
      {...props}
    />
  );
}
