import type { Song } from '@encore/common/library.contract';
import type { Word } from '@encore/common/words.contract';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Pause, Play, X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useCoverImage } from '../../lib/cover-image.query';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { player, usePlayer } from '../../player/player.store';
import type { LyricsLine } from '@encore/common/lyrics-timing.rules';
import { KaraokeLines } from './karaoke-lines.component';

interface SingAlongProps {
  song: Song;
  text: string;
  lines: readonly LyricsLine[];
  words: readonly Word[];
  rtl: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The full-screen sing-along view for parties: large karaoke text over the blurred cover. */
export function SingAlong({ song, text, lines, words, rtl, open, onOpenChange }: SingAlongProps) {
  const t = useT();
  const cover = useCoverImage(song.hasCover ? song.s3Key : null, 'full');
  const isCurrent = usePlayer((state) => state.current?.id === song.id);
  const playing = usePlayer((state) => state.current?.id === song.id && state.isPlaying);
  const toggle = () => (isCurrent ? player.toggle() : player.playQueue([song], 0, { source: 'song' }));

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          data-testid="sing-along"
          className="fixed inset-0 z-[60] flex flex-col overflow-hidden bg-background text-foreground outline-none data-[state=open]:animate-fade-in"
          aria-describedby={undefined}
        >
          {cover.data ? (
            <img src={cover.data} alt="" className="absolute inset-0 -z-10 size-full scale-125 object-cover opacity-45 blur-3xl" />
          ) : (
            <div aria-hidden className="absolute inset-0 -z-10 bg-gradient-to-br from-fuchsia-950 via-background to-indigo-950" />
          )}
          <div aria-hidden className="absolute inset-0 -z-10 bg-gradient-to-b from-background/70 via-transparent to-background/80" />
          <header className="flex items-center gap-3 p-4 sm:p-6">
            <Button size="icon" onClick={toggle} aria-label={playing ? t('singAlongPause') : t('singAlongPlay')}>
              {playing ? <Pause aria-hidden className="size-5 fill-current" /> : <Play aria-hidden className="size-5 fill-current" />}
            </Button>
            <div className="min-w-0 flex-1">
              <DialogPrimitive.Title className="truncate text-lg font-bold">{t('singAlongTitle')}</DialogPrimitive.Title>
              <p dir="auto" className="truncate text-sm text-muted">
                {songHeadline(song)}
              </p>
            </div>
            <DialogPrimitive.Close asChild>
              <Button variant="secondary" size="icon" aria-label={t('singAlongClose')}>
                <X aria-hidden className="size-5" />
              </Button>
            </DialogPrimitive.Close>
          </header>
          <KaraokeLines
            song={song}
            text={text}
            lines={lines}
            words={words}
            rtl={rtl}
            size="stage"
            className="min-h-0 flex-1 [mask-image:linear-gradient(transparent,black_20%,black_80%,transparent)]"
          />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
