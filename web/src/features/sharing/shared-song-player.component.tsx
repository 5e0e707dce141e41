import { Pause, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { SeekBar } from '../../components/seek-bar';
import { useT } from '../../lib/i18n/i18n.store';
import { player } from '../../player/player.store';

interface SharedSongPlayerProps {
  streamUrl: string;
  title: string;
  /** From the tags, until the stream's own metadata is in. */
  durationSeconds: number | null;
}

/**
 * The public share page's player, in Encore's own style (play/pause, seek bar, m:ss) rather than
 * the browser's stock control. It has its own audio element: a visitor has no account, so the
 * app's player (which asks the API for a play URL) is not the one to use.
 */
export function SharedSongPlayer({ streamUrl, title, durationSeconds }: SharedSongPlayerProps) {
  const t = useT();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(durationSeconds ?? 0);
  const [ready, setReady] = useState(false);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch((error: unknown) => console.warn('Playback refused', error));
    else element.pause();
  };
  const seek = (seconds: number) => {
    if (audio.current) audio.current.currentTime = seconds;
    setTime(seconds);
  };

  return (
    <div className="flex items-center gap-4 rounded-2xl border border-border bg-surface/60 p-3.5">
      <audio
        ref={audio}
        preload="metadata"
        src={streamUrl}
        aria-label={t('sharePlayerLabel', { title })}
        onLoadedMetadata={(event) => {
          const seconds = event.currentTarget.duration;
          if (Number.isFinite(seconds) && seconds > 0) setDuration(seconds);
          setReady(true);
        }}
        onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
        // One sound at a time: a signed-in visitor's player bar pauses.
        onPlay={() => {
          player.pause();
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <Button
        size="icon"
        onClick={toggle}
        disabled={!ready}
        aria-label={playing ? t('playerPause') : t('playerPlay')}
        className="size-12 shrink-0 rounded-full"
      >
        {playing ? <Pause aria-hidden className="size-5 fill-current" /> : <Play aria-hidden className="size-5 translate-x-px fill-current" />}
      </Button>
      <SeekBar currentTime={time} duration={duration} disabled={!ready || duration <= 0} onSeek={seek} testIdPrefix="share" className="min-w-0" />
    </div>
  );
}
