import { Pause, Play, Square, StepForward } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import type { PlaylistPlayback } from './playlist-playback';

/** Play All, Pause, Resume and Stop, enabled as SPEC 4 says (see usePlaylistPlayback). */
export function PlaylistControls({ playback }: { playback: PlaylistPlayback }) {
  const t = useT();
  return (
    <div role="group" aria-label={t('playlistPlaybackLabel')} className="flex flex-wrap items-center gap-2.5">
      <Button size="lg" onClick={playback.playAll} className="rounded-full">
        <Play aria-hidden className="size-5 fill-current" />
        {t('playAll')}
      </Button>
      <Button variant="secondary" onClick={playback.pause} disabled={!playback.canPause}>
        <Pause aria-hidden className="size-4 fill-current" />
        {t('playlistPause')}
      </Button>
      <Button variant="secondary" onClick={playback.resume} disabled={!playback.canResume}>
        <StepForward aria-hidden className="size-4 rtl:-scale-x-100" />
        {t('playlistResume')}
      </Button>
      <Button variant="secondary" onClick={playback.stop} disabled={!playback.canStop}>
        <Square aria-hidden className="size-4 fill-current" />
        {t('playlistStop')}
      </Button>
    </div>
  );
}
