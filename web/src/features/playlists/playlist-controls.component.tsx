import { Pause, Play, Square, StepForward } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import type { PlaylistPlayback } from './playlist-playback';

const groupButton =
  'h-11 rounded-none bg-transparent px-4 ring-0 hover:bg-white/[0.06] disabled:bg-transparent disabled:text-subtle disabled:opacity-50 [&:not(:first-child)]:border-s [&:not(:first-child)]:border-border';

/**
 * Play All, Pause, Resume and Stop, enabled as SPEC 4 says (see usePlaylistPlayback): Play All
 * leads, the other three sit in one joined group, and a disabled one is plainly greyed out.
 */
export function PlaylistControls({ playback }: { playback: PlaylistPlayback }) {
  const t = useT();
  return (
    <div role="group" aria-label={t('playlistPlaybackLabel')} className="flex flex-wrap items-center gap-3">
      <Button size="lg" onClick={playback.playAll} className="rounded-full">
        <Play aria-hidden className="size-5 fill-current" />
        {t('playAll')}
      </Button>
      <div className="inline-flex overflow-hidden rounded-full bg-surface-raised ring-1 ring-border">
        <Button variant="secondary" className={groupButton} onClick={playback.pause} disabled={!playback.canPause}>
          <Pause aria-hidden className="size-4 fill-current" />
          {t('playlistPause')}
        </Button>
        <Button variant="secondary" className={groupButton} onClick={playback.resume} disabled={!playback.canResume}>
          <StepForward aria-hidden className="size-4 rtl:-scale-x-100" />
          {t('playlistResume')}
        </Button>
        <Button variant="secondary" className={groupButton} onClick={playback.stop} disabled={!playback.canStop}>
          <Square aria-hidden className="size-4 fill-current" />
          {t('playlistStop')}
        </Button>
      </div>
    </div>
  );
}
