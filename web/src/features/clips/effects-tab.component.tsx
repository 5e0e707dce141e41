import {
  ASPECT_RATIOS,
  CLIP_SETTING_LIMITS,
  TRANSITIONS,
  VIDEO_FORMATS,
  VIDEO_QUALITIES,
  VIDEO_QUALITY_LABELS,
  type ClipSettings,
  type Transition,
} from '@encore/common/clips.contract';
import { TEXT_ANIMATIONS, type TextAnimation } from '@encore/common/text-style.contract';
import { Lock } from 'lucide-react';
import { Tooltip } from '../../components/ui/tooltip';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT } from '../../lib/i18n/i18n.store';
import { clipEditor, useClipEditor } from './clip-editor.store';
import { SettingSection, SettingSelect, SettingSlider, SettingSwitch } from './setting-controls.component';

const ANIMATION_LABELS: Record<TextAnimation, MessageKey> = {
  fade: 'clipAnimationFade',
  slide: 'clipAnimationSlide',
  zoom: 'clipAnimationZoom',
  bounce: 'clipAnimationBounce',
  pulse: 'clipAnimationPulse',
  none: 'clipAnimationNone',
};
const TRANSITION_LABELS: Record<Transition, MessageKey> = {
  smooth: 'clipTransitionSmooth',
  sharp: 'clipTransitionSharp',
  elastic: 'clipTransitionElastic',
  none: 'clipTransitionNone',
};
const ADVANCED: readonly { key: 'beatDetection' | 'autoSync' | 'colorMatch' | 'autoSubtitles'; label: MessageKey; description: MessageKey }[] = [
  { key: 'beatDetection', label: 'clipBeatDetection', description: 'clipBeatDetectionHelp' },
  { key: 'autoSync', label: 'clipAutoSync', description: 'clipAutoSyncHelp' },
  { key: 'colorMatch', label: 'clipColorMatch', description: 'clipColorMatchHelp' },
  { key: 'autoSubtitles', label: 'clipAutoSubtitles', description: 'clipAutoSubtitlesHelp' },
];

/** SPEC 2's Effects tab: animation, transitions, video and audio settings, the advanced toggle and the disabled card. */
export function EffectsTab() {
  const t = useT();
  const s = useClipEditor((state) => state.settings);
  const showAdvanced = useClipEditor((state) => state.showAdvanced);
  const update = clipEditor.update;
  const fade = CLIP_SETTING_LIMITS.audioFade;

  return (
    <div className="flex flex-col gap-3">
      <SettingSelect
        label={t('clipAnimation')}
        value={s.animation}
        options={TEXT_ANIMATIONS.map((value) => ({ value, label: t(ANIMATION_LABELS[value]) }))}
        onChange={(animation) => update({ animation })}
      />
      <SettingSelect
        label={t('clipTransitions')}
        value={s.transitions}
        options={TRANSITIONS.map((value) => ({ value, label: t(TRANSITION_LABELS[value]) }))}
        onChange={(transitions) => update({ transitions })}
      />

      <SettingSection title={t('clipSectionVideo')}>
        <SettingSelect
          label={t('clipQuality')}
          value={s.videoQuality}
          options={VIDEO_QUALITIES.map((value) => ({ value, label: VIDEO_QUALITY_LABELS[value] }))}
          onChange={(videoQuality) => update({ videoQuality })}
        />
        <SettingSelect
          label={t('clipFormat')}
          value={s.videoFormat}
          options={VIDEO_FORMATS.map((value) => ({ value, label: value.toUpperCase() }))}
          onChange={(videoFormat) => update({ videoFormat })}
        />
        <SettingSlider
          label={t('clipFramerate')}
          value={s.framerate}
          {...CLIP_SETTING_LIMITS.framerate}
          unit=" FPS"
          onChange={(framerate) => update({ framerate })}
        />
        <SettingSelect
          label={t('clipAspectRatio')}
          value={s.aspectRatio}
          options={ASPECT_RATIOS.map((value) => ({
            value,
            label: t(value === '16:9' ? 'clipAspectLandscape' : value === '9:16' ? 'clipAspectPortrait' : 'clipAspectSquare'),
          }))}
          onChange={(aspectRatio) => update({ aspectRatio })}
        />
        <ClipRange settings={s} />
      </SettingSection>

      <SettingSection title={t('clipSectionAudio')}>
        <SettingSlider label={t('clipFadeIn')} value={s.audioFadeIn} {...fade} unit=" s" onChange={(audioFadeIn) => update({ audioFadeIn })} />
        <SettingSlider label={t('clipFadeOut')} value={s.audioFadeOut} {...fade} unit=" s" onChange={(audioFadeOut) => update({ audioFadeOut })} />
      </SettingSection>

      <div className="rounded-xl border border-border bg-background/40 p-4">
        <SettingSwitch label={t('clipAdvancedEffects')} checked={showAdvanced} onChange={clipEditor.setShowAdvanced} />
        {showAdvanced ? (
          <div className="mt-4 flex flex-col gap-4">
            {ADVANCED.map((item) => (
              <SettingSwitch
                key={item.key}
                label={t(item.label)}
                description={t(item.description)}
                checked={s[item.key]}
                onChange={(value) => update({ [item.key]: value })}
              />
            ))}
          </div>
        ) : null}
      </div>

      <Tooltip content={t('comingSoon')}>
        <div
          aria-disabled="true"
          className="flex cursor-not-allowed items-center gap-3 rounded-xl border border-dashed border-border p-4 text-sm text-muted opacity-60"
        >
          <Lock aria-hidden className="size-4" />
          {t('clipAdvancedSettingsCard')}
        </div>
      </Tooltip>
    </div>
  );
}

/** Beyond the spec: the part of the song the clip shows (start, and an end or the song's end). */
function ClipRange({ settings }: { settings: ClipSettings }) {
  const t = useT();
  const invalid = settings.endTime !== null && settings.endTime <= settings.startTime;
  const seconds = (value: string) => Math.max(0, Number(value) || 0);
  return (
    <div className="grid grid-cols-2 gap-3 text-sm">
      <label className="flex flex-col gap-1.5 font-medium">
        {t('clipStart')}
        <input
          type="number"
          min={0}
          step={0.1}
          dir="ltr"
          value={settings.startTime}
          onChange={(event) => clipEditor.update({ startTime: seconds(event.currentTarget.value) })}
          className="h-10 rounded-xl border border-border bg-background/60 px-3 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </label>
      <label className="flex flex-col gap-1.5 font-medium">
        {t('clipEnd')}
        <input
          type="number"
          min={0}
          step={0.1}
          dir="ltr"
          placeholder={t('clipEndOfSong')}
          value={settings.endTime ?? ''}
          aria-invalid={invalid}
          onChange={(event) => clipEditor.update({ endTime: event.currentTarget.value === '' ? null : seconds(event.currentTarget.value) })}
          className="h-10 rounded-xl border border-border bg-background/60 px-3 outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-red-400"
        />
      </label>
      {invalid ? <p className="col-span-2 text-xs text-red-300">{t('clipEndAfterStart')}</p> : null}
    </div>
  );
}
