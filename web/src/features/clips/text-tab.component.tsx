import { backgroundColorFor, FONT_FAMILIES, TEXT_ALIGNS, TEXT_POSITIONS, TEXT_STYLE_LIMITS, type TextStyle } from '@encore/common/text-style.contract';
import { AlignCenter, AlignLeft, AlignRight, Bold, Italic, Underline } from 'lucide-react';
import { ToggleGroup } from '../../components/ui/toggle-group';
import { cn } from '../../lib/cn';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT } from '../../lib/i18n/i18n.store';
import { clipEditor, useClipEditor } from './clip-editor.store';
import { SettingSection, SettingSelect, SettingSlider, SettingSwitch } from './setting-controls.component';

export const FONT_FAMILY_LABELS: Record<TextStyle['fontFamily'], MessageKey> = {
  'sans-serif': 'clipFontSans',
  serif: 'clipFontSerif',
  monospace: 'clipFontMono',
  cursive: 'clipFontCursive',
  fantasy: 'clipFontFantasy',
};
const POSITION_LABELS: Record<TextStyle['textPosition'], MessageKey> = { top: 'clipPositionTop', center: 'clipPositionCenter', bottom: 'clipPositionBottom' };
const ALIGN_LABELS: Record<TextStyle['textAlign'], MessageKey> = { left: 'clipAlignLeft', center: 'clipAlignCenter', right: 'clipAlignRight' };
const ALIGN_ICONS = { left: <AlignLeft />, center: <AlignCenter />, right: <AlignRight /> };

/** SPEC 2's Text tab: accordions for font and style, the text background and the text position. */
export function TextTab() {
  const t = useT();
  const s = useClipEditor((state) => state.settings);
  const update = clipEditor.update;
  const L = TEXT_STYLE_LIMITS;
  const styleButtons = [
    { key: 'bold', label: t('clipBold'), icon: <Bold /> },
    { key: 'italic', label: t('clipItalic'), icon: <Italic /> },
    { key: 'underline', label: t('clipUnderline'), icon: <Underline /> },
  ] as const;

  return (
    <div className="flex flex-col gap-3">
      <SettingSection title={t('clipSectionFont')} defaultOpen>
        <SettingSelect
          label={t('clipFontFamily')}
          value={s.fontFamily}
          options={FONT_FAMILIES.map((value) => ({ value, label: t(FONT_FAMILY_LABELS[value]) }))}
          onChange={(fontFamily) => update({ fontFamily })}
        />
        <SettingSlider label={t('clipFontSize')} value={s.fontSize} {...L.fontSize} unit="px" onChange={(fontSize) => update({ fontSize })} />
        <label className="flex items-center justify-between text-sm font-medium">
          {t('clipTextColor')}
          <input
            type="color"
            value={/^#[0-9a-f]{6}$/i.test(s.textColor) ? s.textColor : '#ffffff'}
            onChange={(event) => update({ textColor: event.currentTarget.value })}
            className="h-9 w-14 cursor-pointer rounded-lg border border-border bg-transparent"
          />
        </label>
        <div className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium">{t('clipTextStyle')}</span>
          <div role="group" aria-label={t('clipTextStyle')} className="flex gap-1">
            {styleButtons.map((button) => {
              const pressed = s.textStyles[button.key];
              return (
                <button
                  key={button.key}
                  type="button"
                  aria-pressed={pressed}
                  aria-label={button.label}
                  title={button.label}
                  onClick={() => update({ textStyles: { ...s.textStyles, [button.key]: !pressed } })}
                  className={cn(
                    'grid size-9 cursor-pointer place-items-center rounded-lg ring-1 ring-border outline-none focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4',
                    pressed ? 'bg-accent-gradient text-white' : 'text-muted hover:text-foreground',
                  )}
                >
                  {button.icon}
                </button>
              );
            })}
          </div>
        </div>
        <div className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium">{t('clipTextAlign')}</span>
          <ToggleGroup
            label={t('clipTextAlign')}
            value={s.textAlign}
            iconOnly
            items={TEXT_ALIGNS.map((value) => ({ value, label: t(ALIGN_LABELS[value]), icon: ALIGN_ICONS[value] }))}
            onValueChange={(textAlign) => update({ textAlign })}
            className="self-start"
          />
        </div>
        <SettingSlider
          label={t('clipLetterSpacing')}
          value={s.letterSpacing}
          {...L.letterSpacing}
          unit="px"
          onChange={(letterSpacing) => update({ letterSpacing })}
        />
        <SettingSlider label={t('clipLineHeight')} value={s.lineHeight} {...L.lineHeight} onChange={(lineHeight) => update({ lineHeight })} />
        <SettingSwitch label={t('clipTextShadow')} checked={s.textShadow} onChange={(textShadow) => update({ textShadow })} />
      </SettingSection>

      <SettingSection title={t('clipSectionBackground')}>
        <SettingSwitch label={t('clipShowBackground')} checked={s.showBackground} onChange={(showBackground) => update({ showBackground })} />
        {s.showBackground ? (
          <>
            <SettingSlider
              label={t('clipBackgroundOpacity')}
              value={s.backgroundOpacity}
              {...L.backgroundOpacity}
              unit="%"
              onChange={(backgroundOpacity) => update({ backgroundOpacity, backgroundColor: backgroundColorFor(backgroundOpacity) })}
            />
            <SettingSlider
              label={t('clipBorderRadius')}
              value={s.borderRadius}
              {...L.borderRadius}
              unit="px"
              onChange={(borderRadius) => update({ borderRadius })}
            />
            <SettingSlider label={t('clipPadding')} value={s.padding} {...L.padding} unit="px" onChange={(padding) => update({ padding })} />
          </>
        ) : null}
      </SettingSection>

      <SettingSection title={t('clipSectionPosition')}>
        <ToggleGroup
          label={t('clipTextPosition')}
          value={s.textPosition}
          items={TEXT_POSITIONS.map((value) => ({ value, label: t(POSITION_LABELS[value]) }))}
          onValueChange={(textPosition) => update({ textPosition })}
          className="self-start"
        />
      </SettingSection>
    </div>
  );
}
