import type { SongListEntry } from '@encore/common/library.contract';
import { Pause, Play } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { SeekBar } from '../../components/seek-bar';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { player, usePlayer } from '../../player/player.store';

/** What the one player says about this song; a song that is not selected reads stopped at 0. */
function useSongPlayback(song: SongListEntry) {
  const isCurrent = usePlayer((state) => state.current?.id === song.id);
  const ready = usePlayer((state) => state.current?.id === song.id && state.ready);
  const loading = usePlayer((state) => state.current?.id === song.id && state.loading);
  const isPlaying = usePlayer((state) => state.current?.id === song.id && state.isPlaying);
  const currentTime = usePlayer((state) => (state.current?.id === song.id ? state.currentTime : 0));
  const playerDuration = usePlayer((state) => (state.current?.id === song.id ? state.duration : 0));
  return { isCurrent, ready, loading, isPlaying, currentTime, duration: playerDuration || song.durationSeconds || 0 };
}

/**
 * Song page playback (SPEC 2, 4): a play/pause button and a seek bar with the time as m:ss.
 * It drives the app's one player, so the song keeps playing in the bar after leaving the page.
 */
export function SongPlayback({ song }: { song: SongListEntry }) {
  const t = useT();
  const { isCurrent, ready, loading, isPlaying, currentTime, duration } = useSongPlayback(song);

  const toggle = () => {
    if (isCurrent) player.toggle();
    else player.playQueue([song], 0, { source: 'song' });
  };
  const seek = (seconds: number) => {
    if (isCurrent) player.seek(seconds);
    else player.playQueue([song], 0, { source: 'song', startAt: seconds });
  };

  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-border bg-surface/60 p-4 sm:flex-row sm:items-center sm:gap-5">
      <Button size="lg" onClick={toggle} disabled={isCurrent && !ready} className="h-12 min-w-32 rounded-full">
        {isCurrent && loading && !ready ? (
          <Spinner className="size-5" />
        ) : isPlaying ? (
          <Pause aria-hidden className="size-5 fill-current" />
        ) : (
          <Play aria-hidden className="size-5 fill-current" />
        )}
        {isPlaying ? t('songPause') : t('songPlay')}
      </Button>
      <SeekBar currentTime={currentTime} duration={duration} disabled={duration <= 0 || (isCurrent && !ready)} onSeek={seek} testIdPrefix="song" />
    </div>
  );
}
