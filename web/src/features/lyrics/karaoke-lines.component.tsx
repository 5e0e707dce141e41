import type { Song } from '@encore/common/library.contract';
import { wordsPerLine } from '@encore/common/lyrics-document.rules';
import { currentLineIndex, type LyricsLine } from '@encore/common/lyrics-timing.rules';
import type { Word } from '@encore/common/words.contract';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { player } from '../../player/player.store';
import { wordFill } from './karaoke';

/** Where the song is, for karaoke: the player's element time when this song is the one playing. */
function songPosition(songId: number): number | null {
  const state = player.getState();
  return state.current?.id === songId ? player.position() : null;
}

/** Plays the song from `seconds`: a seek when it is the current song, else it starts there. */
export function playSongFrom(song: Song, seconds: number): void {
  if (player.getState().current?.id === song.id) {
    player.seek(seconds);
    if (!player.getState().isPlaying) void player.play();
  } else {
    player.playQueue([song], 0, { source: 'song', startAt: seconds });
  }
}

interface KaraokeLinesProps {
  song: Song;
  /** The lyrics text, whose lines the words are counted against. */
  text: string;
  lines: readonly LyricsLine[];
  words: readonly Word[];
  rtl: boolean;
  /** 'panel' on the song page; 'stage' for the full-screen sing-along. */
  size: 'panel' | 'stage';
  className?: string;
}

/**
 * Karaoke (SPEC 4): follows the song page's real audio clock every animation frame, highlights
 * the current line and scrolls it to the centre of its box; with word times the current word
 * fills as it is sung. Clicking a line seeks there.
 */
export const KaraokeLines = memo(function KaraokeLines({ song, text, lines, words, rtl, size, className }: KaraokeLinesProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(-1);
  const grouped = useMemo(() => (words.length > 0 ? wordsPerLine(text, words) : []), [text, words]);

  // One loop per view: the line index goes through React (it changes a few times a minute);
  // the word fill is painted straight onto the current line's word elements every frame.
  useEffect(() => {
    let frame = 0;
    const tick = () => {
      const time = songPosition(song.id);
      const index = time === null ? -1 : currentLineIndex(lines, time);
      setActive(index);
      if (time !== null && box.current) {
        for (const element of box.current.querySelectorAll<HTMLElement>('[data-active="true"] [data-word-start]')) {
          const fill = wordFill({ text: '', start: Number(element.dataset['wordStart']), end: Number(element.dataset['wordEnd']) }, time);
          element.style.setProperty('--fill', `${Math.round(fill * 1000) / 10}%`);
        }
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [lines, song.id]);

  // The current line to the centre of the box (not the page: the reader keeps their place).
  useEffect(() => {
    const container = box.current;
    const line = container?.querySelector<HTMLElement>(`[data-line-index="${active}"]`);
    if (!container || !line) return;
    const top = line.offsetTop - container.clientHeight / 2 + line.clientHeight / 2;
    container.scrollTo?.({ top, behavior: 'smooth' });
  }, [active]);

  const stage = size === 'stage';
  return (
    <div
      ref={box}
      dir={rtl ? 'rtl' : 'ltr'}
      data-testid={stage ? 'sing-along-lines' : 'karaoke-lines'}
      className={cn('relative overflow-y-auto overscroll-contain scroll-smooth', stage ? 'h-full px-4 py-[40vh]' : 'max-h-[26rem] px-1 py-24', className)}
    >
      <ol className={cn('flex flex-col', stage ? 'gap-5 text-center' : 'gap-1.5')}>
        {lines.map((line, index) => {
          const lineWords = grouped[index] ?? [];
          const isActive = index === active;
          const sung = index < active;
          return (
            <li
              key={index}
              data-line-index={index}
              data-active={isActive ? 'true' : undefined}
              data-start={line.startTime}
              aria-current={isActive || undefined}
            >
              {line.text.trim() === '' ? (
                <span aria-hidden className="block h-3" />
              ) : (
                <button
                  type="button"
                  onClick={() => playSongFrom(song, line.startTime)}
                  aria-label={t('lyricsSeekLine', { line: line.text })}
                  className={cn(
                    'w-full cursor-pointer rounded-lg px-2 py-1 text-start transition-[color,transform,opacity] duration-300 outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    stage ? 'text-center text-3xl font-extrabold sm:text-5xl' : 'text-lg font-semibold',
                    line.isHeader &&
                      (stage ? 'text-xl text-fuchsia-300/80 sm:text-2xl' : 'text-sm tracking-wide text-fuchsia-300/80 uppercase rtl:tracking-normal'),
                    isActive ? 'scale-[1.02] text-white' : sung ? 'text-foreground/45' : 'text-foreground/70 hover:text-foreground',
                    isActive && !stage && 'bg-accent/15 ring-1 ring-accent/40',
                  )}
                >
                  {lineWords.length > 0 && !line.isHeader ? (
                    lineWords.map((word, w) => (
                      <span key={w}>
                        <span data-word-start={word.start} data-word-end={word.end} className={isActive ? 'karaoke-word' : undefined}>
                          {word.text}
                        </span>
                        {w < lineWords.length - 1 ? ' ' : null}
                      </span>
                    ))
                  ) : (
                    <span dir="auto">{line.text}</span>
                  )}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
});
