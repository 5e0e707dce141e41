import { SEEK_STEP_SECONDS } from '@encore/common/constants';
import { formatClockTime } from '../lib/clock-time.format';
import { useT } from '../lib/i18n/i18n.store';
import { cn } from '../lib/cn';
import { Slider } from './ui/slider';

interface SeekBarProps {
  currentTime: number;
  duration: number;
  disabled: boolean;
  onSeek: (seconds: number) => void;
  /** Names the time labels for tests: `<prefix>-elapsed` and `<prefix>-duration`. */
  testIdPrefix: string;
  className?: string;
}

/** A seek slider over the elapsed and total time (m:ss), as the song and share pages show it. */
export function SeekBar({ currentTime, duration, disabled, onSeek, testIdPrefix, className }: SeekBarProps) {
  const t = useT();
  const elapsed = formatClockTime(currentTime);
  const total = formatClockTime(duration);
  return (
    // Playback time runs left to right in every language, like the tape it stands for.
    <div dir="ltr" className={cn('flex flex-1 flex-col gap-1.5', className)}>
      <Slider
        size="md"
        dir="ltr"
        aria-label={t('songSeek')}
        aria-valuetext={t('playerSeekValue', { elapsed, total })}
        value={currentTime}
        max={duration}
        step={SEEK_STEP_SECONDS}
        disabled={disabled}
        onValueChange={onSeek}
      />
      <div className="flex justify-between text-xs text-muted tabular-nums">
        <span data-testid={`${testIdPrefix}-elapsed`}>{elapsed}</span>
        <span data-testid={`${testIdPrefix}-duration`}>{total}</span>
      </div>
    </div>
  );
}
