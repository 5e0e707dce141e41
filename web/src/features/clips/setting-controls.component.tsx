import { ChevronDown } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Slider } from '../../components/ui/slider';
import { cn } from '../../lib/cn';

/** A labelled slider with its value shown (SPEC 5's ranges and steps are passed in). */
export function SettingSlider({
  label,
  value,
  min,
  max,
  step,
  unit = '',
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit?: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const decimals = step < 1 ? 1 : 0;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between text-sm">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <output htmlFor={id} className="text-muted tabular-nums" dir="ltr">
          {value.toFixed(decimals)}
          {unit}
        </output>
      </div>
      <Slider id={id} value={value} min={min} max={max} step={step} onValueChange={(next) => onChange(Number(next.toFixed(2)))} />
    </div>
  );
}

/** An on/off switch with its label. */
export function SettingSwitch({
  label,
  checked,
  onChange,
  description,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
}) {
  return (
    <label className="flex cursor-pointer items-center justify-between gap-3 text-sm">
      <span className="flex flex-col">
        <span className="font-medium">{label}</span>
        {description ? <span className="text-xs text-muted">{description}</span> : null}
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        onClick={() => onChange(!checked)}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
          checked ? 'bg-accent-gradient' : 'bg-white/15',
        )}
      >
        <span className={cn('absolute size-5 rounded-full bg-white shadow transition-all', checked ? 'inset-s-[22px]' : 'inset-s-0.5')} />
      </button>
    </label>
  );
}

/** A labelled choice among a few options (a native select: keyboard and phones handle it well). */
export function SettingSelect<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value as V)}
        className="h-10 rounded-xl border border-border bg-background/60 px-3 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An accordion section (native details/summary: open and close with mouse, keyboard and screen readers). */
export function SettingSection({ title, children, defaultOpen = false }: { title: string; children: ReactNode; defaultOpen?: boolean }) {
  return (
    <details open={defaultOpen} className="group rounded-xl border border-border bg-background/40">
      <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 text-sm font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        {title}
        <ChevronDown aria-hidden className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <div className="flex flex-col gap-4 px-4 pt-1 pb-4">{children}</div>
    </details>
  );
}
