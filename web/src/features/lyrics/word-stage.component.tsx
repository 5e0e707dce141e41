import type { TextStyle } from '@encore/common/text-style.contract';
import { Pause, Play } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { formatClockTime } from '../../lib/clock-time.format';
import { useT } from '../../lib/i18n/i18n.store';
import { useMediaPlaying, useMediaTime } from './use-editor-audio';
import type { EditorWord } from './word-editor.state';
import { WordPreview } from './word-preview.component';

interface WordStageProps {
  media: HTMLAudioElement;
  ready: boolean;
  words: readonly EditorWord[];
  style: TextStyle;
  duration: number;
  coverUrl: string | null;
}

/** The preview playing the real audio with the current words styled (SPEC 4 word preview editor). */
export function WordStage({ media, ready, words, style, duration, coverUrl }: WordStageProps) {
  const t = useT();
  const time = useMediaTime(media, 0.02);
  const playing = useMediaPlaying(media);
  const tenths = (seconds: number) => `${formatClockTime(seconds)}.${Math.floor((seconds % 1) * 10)}`;
  return (
    <section className="flex flex-col gap-3" aria-label={t('wordPreviewTitle')}>
      <WordPreview words={words} time={time} style={style} backgroundUrl={coverUrl} />
      <div className="flex items-center gap-3">
        <Button
          size="sm"
          className="min-w-24 rounded-full"
          disabled={!ready}
          onClick={() => (media.paused ? void media.play().catch(() => undefined) : media.pause())}
        >
          {playing ? <Pause aria-hidden className="size-4 fill-current" /> : <Play aria-hidden className="size-4 fill-current" />}
          {playing ? t('wordPause') : t('wordPlay')}
        </Button>
        <span dir="ltr" data-testid="word-editor-time" className="text-sm text-muted tabular-nums">
          {tenths(time)} / {formatClockTime(duration)}
        </span>
      </div>
    </section>
  );
}
