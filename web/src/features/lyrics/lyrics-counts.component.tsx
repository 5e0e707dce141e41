import { cn } from '../../lib/cn';
import { useTCount } from '../../lib/i18n/i18n.store';

/** SPEC 2: the lyrics footer's line and character counts (non-empty lines; every character). */
export function lyricsCounts(text: string): { lines: number; characters: number } {
  const lines = text.split(/\r?\n/u).filter((line) => line.trim() !== '').length;
  return { lines, characters: text.length };
}

export function LyricsCounts({ text, className }: { text: string; className?: string }) {
  const count = useTCount();
  const { lines, characters } = lyricsCounts(text);
  return (
    <p data-testid="lyrics-counts" className={cn('text-xs text-muted tabular-nums', className)}>
      {count('lyricsLineCount', lines)} · {count('lyricsCharCount', characters)}
    </p>
  );
}
