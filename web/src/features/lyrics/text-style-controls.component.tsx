import { FONT_FAMILIES, TEXT_ALIGNS, TEXT_ANIMATIONS, TEXT_POSITIONS, TEXT_STYLE_LIMITS, type TextStyle } from '@encore/common/text-style.contract';
import { useId, type ReactNode } from 'react';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { Slider } from '../../components/ui/slider';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT } from '../../lib/i18n/i18n.store';

interface TextStyleControlsProps {
  style: TextStyle;
  onChange: (style: TextStyle) => void;
}

type RangeName = 'fontSize' | 'letterSpacing' | 'lineHeight' | 'backgroundOpacity' | 'borderRadius' | 'padding';

const selectClass =
  'h-10 w-full rounded-xl border border-border bg-input px-3 text-sm text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring';

function Field({ label, htmlFor, children, value }: { label: string; htmlFor: string; children: ReactNode; value?: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={htmlFor}>{label}</Label>
        {value !== undefined ? <span className="text-xs text-muted tabular-nums">{value}</span> : null}
      </div>
      {children}
    </div>
  );
}

/** The text style settings of the preview (SPEC 3 fields, SPEC 5 limits), one control each. */
export function TextStyleControls({ style, onChange }: TextStyleControlsProps) {
  const t = useT();
  const id = useId();
  const set = <K extends keyof TextStyle>(name: K, value: TextStyle[K]) => onChange({ ...style, [name]: value });

  const range = (name: RangeName, label: MessageKey, unit = '') => {
    const { min, max, step } = TEXT_STYLE_LIMITS[name];
    return (
      <Field label={t(label)} htmlFor={`${id}-${name}`} value={`${style[name]}${unit}`}>
        <Slider id={`${id}-${name}`} min={min} max={max} step={step} value={style[name]} onValueChange={(value) => set(name, value)} />
      </Field>
    );
  };

  const choice = <K extends 'fontFamily' | 'textAlign' | 'textPosition' | 'animation'>(
    name: K,
    label: MessageKey,
    options: readonly TextStyle[K][],
    optionLabel: (option: TextStyle[K]) => string,
  ) => (
    <Field label={t(label)} htmlFor={`${id}-${name}`}>
      <select id={`${id}-${name}`} className={selectClass} value={style[name]} onChange={(event) => set(name, event.currentTarget.value as TextStyle[K])}>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </Field>
  );

  const toggle = (checked: boolean, label: MessageKey, onToggle: (checked: boolean) => void) => (
    <label className="flex cursor-pointer items-center gap-2 text-sm">
      <Checkbox checked={checked} onCheckedChange={(value) => onToggle(value === true)} />
      {t(label)}
    </label>
  );

  return (
    <div className="grid gap-4 sm:grid-cols-2" data-testid="text-style-controls">
      {choice('fontFamily', 'styleFont', FONT_FAMILIES, (font) => font)}
      {range('fontSize', 'styleFontSize', 'px')}
      <Field label={t('styleTextColor')} htmlFor={`${id}-color`}>
        <input
          id={`${id}-color`}
          type="color"
          className="h-10 w-full cursor-pointer rounded-xl border border-border bg-input px-1"
          value={/^#[0-9a-f]{6}$/i.test(style.textColor) ? style.textColor : '#ffffff'}
          onChange={(event) => set('textColor', event.currentTarget.value)}
        />
      </Field>
      {choice('textAlign', 'styleAlign', TEXT_ALIGNS, (align) => t(`styleAlign_${align}`))}
      {choice('textPosition', 'stylePosition', TEXT_POSITIONS, (position) => t(`stylePosition_${position}`))}
      {choice('animation', 'styleAnimation', TEXT_ANIMATIONS, (animation) => t(`styleAnimation_${animation}`))}
      {range('letterSpacing', 'styleLetterSpacing', 'px')}
      {range('lineHeight', 'styleLineHeight')}
      <div className="flex flex-wrap gap-x-5 gap-y-3 sm:col-span-2">
        {toggle(style.textStyles.bold, 'styleBold', (bold) => set('textStyles', { ...style.textStyles, bold }))}
        {toggle(style.textStyles.italic, 'styleItalic', (italic) => set('textStyles', { ...style.textStyles, italic }))}
        {toggle(style.textStyles.underline, 'styleUnderline', (underline) => set('textStyles', { ...style.textStyles, underline }))}
        {toggle(style.textShadow, 'styleShadow', (textShadow) => set('textShadow', textShadow))}
        {toggle(style.showBackground, 'styleBackground', (showBackground) => set('showBackground', showBackground))}
      </div>
      {/* SPEC 5: opacity, radius and padding show only while the background is on. */}
      {style.showBackground ? (
        <>
          {range('backgroundOpacity', 'styleBackgroundOpacity', '%')}
          {range('borderRadius', 'styleBorderRadius', 'px')}
          {range('padding', 'stylePadding', 'px')}
        </>
      ) : null}
    </div>
  );
}
