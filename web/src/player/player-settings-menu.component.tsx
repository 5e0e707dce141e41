import { SlidersHorizontal } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { Slider } from '../components/ui/slider';
import { ToggleGroup } from '../components/ui/toggle-group';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { formatQuantity } from '../lib/ltr-run.format';
import type { NormalisationMode } from './loudness';
import { CROSSFADE_SECONDS_RANGE, PREAMP_DB_RANGE, TARGET_LUFS_RANGE, playerSettings, usePlayerSettings } from './player-settings';
import { usePlayer } from './player.store';

function SettingRow({ label, value, children }: { label: string; value: string; children: (labelId: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id={id} className="font-medium">
          {label}
        </span>
        <output aria-hidden className="text-xs text-muted tabular-nums">
          {value}
        </output>
      </div>
      {children(id)}
    </div>
  );
}

/**
 * The player's settings (issue 30) behind their own button (wide screens); phones reach the same
 * panel through the bar's More menu.
 */
export function PlayerSettingsMenu({ triggerClassName }: { triggerClassName: string }) {
  const t = useT();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button type="button" className={triggerClassName} aria-label={t('playerSettings')} title={t('playerSettings')}>
          <SlidersHorizontal aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent side="top" align="end" className="flex w-80 flex-col gap-4 p-4" aria-label={t('playerSettings')}>
        <PlayerSettingsPanel />
      </PopoverContent>
    </Popover>
  );
}

/**
 * The player's settings (issue 30): loudness normalisation off / track / album, the target
 * loudness and pre-amp, and the crossfade (0 = gapless). Kept in this browser.
 */
export function PlayerSettingsPanel() {
  const t = useT();
  const mode = usePlayerSettings((settings) => settings.mode);
  const targetLufs = usePlayerSettings((settings) => settings.targetLufs);
  const preampDb = usePlayerSettings((settings) => settings.preampDb);
  const crossfadeSeconds = usePlayerSettings((settings) => settings.crossfadeSeconds);
  const gainDb = usePlayer((state) => state.gainDb);
  const off = mode === 'off';
  const target = formatQuantity(targetLufs, 'LUFS');
  const preamp = formatQuantity(preampDb, 'dB', { signed: true });
  return (
    <>
      <h2 className="text-sm font-bold tracking-tight">{t('playerSettings')}</h2>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">{t('settingsNormalisation')}</span>
        <ToggleGroup<NormalisationMode>
          label={t('settingsNormalisation')}
          value={mode}
          onValueChange={(next) => playerSettings.update({ mode: next })}
          items={[
            { value: 'off', label: t('settingsNormalisationOff') },
            { value: 'track', label: t('settingsNormalisationTrack') },
            { value: 'album', label: t('settingsNormalisationAlbum') },
          ]}
          className="self-start"
        />
        <p className="text-xs leading-relaxed text-muted">{t('settingsNormalisationHelp')}</p>
      </div>
      <div className={cn('flex flex-col gap-4', off && 'opacity-50')}>
        <SettingRow label={t('settingsTarget')} value={target}>
          {(labelId) => (
            <Slider
              aria-labelledby={labelId}
              aria-valuetext={target}
              min={TARGET_LUFS_RANGE.min}
              max={TARGET_LUFS_RANGE.max}
              step={TARGET_LUFS_RANGE.step}
              value={targetLufs}
              disabled={off}
              onValueChange={(value) => playerSettings.update({ targetLufs: value })}
            />
          )}
        </SettingRow>
        <SettingRow label={t('settingsPreamp')} value={preamp}>
          {(labelId) => (
            <Slider
              aria-labelledby={labelId}
              aria-valuetext={preamp}
              min={PREAMP_DB_RANGE.min}
              max={PREAMP_DB_RANGE.max}
              step={PREAMP_DB_RANGE.step}
              value={preampDb}
              disabled={off}
              onValueChange={(value) => playerSettings.update({ preampDb: value })}
            />
          )}
        </SettingRow>
        {off ? null : (
          <p className="text-xs text-muted" data-testid="player-gain">
            {t('settingsGainNow', { value: formatQuantity(gainDb, 'dB', { signed: true }) })}
          </p>
        )}
      </div>
      <SettingRow
        label={t('settingsCrossfade')}
        value={crossfadeSeconds === 0 ? t('settingsCrossfadeOff') : t('settingsCrossfadeValue', { value: String(crossfadeSeconds) })}
      >
        {(labelId) => (
          <Slider
            aria-labelledby={labelId}
            aria-valuetext={crossfadeSeconds === 0 ? t('settingsCrossfadeOff') : t('settingsCrossfadeValue', { value: String(crossfadeSeconds) })}
            min={CROSSFADE_SECONDS_RANGE.min}
            max={CROSSFADE_SECONDS_RANGE.max}
            step={CROSSFADE_SECONDS_RANGE.step}
            value={crossfadeSeconds}
            onValueChange={(value) => playerSettings.update({ crossfadeSeconds: value })}
          />
        )}
      </SettingRow>
    </>
  );
}
