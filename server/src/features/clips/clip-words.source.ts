import type { Word } from '@encore/common/words.contract';

/**
 * autoSubtitles: where a song's timed words come from when the clip has none. The lyrics
 * feature (word timings, transcription) implements this; features.ts wires it to the stored lyrics.
 */
export interface ClipWordsSource {
  wordsFor(songId: number): Promise<Word[] | undefined>;
}

/**
 * Without timed words, the stored lyrics text (`songs.transcript`, `[Section]` headers dropped)
 * as words without timings: the subtitle document spreads them evenly over the clip.
 */
export function wordsFromTranscript(transcript: string | null): Word[] {
  if (!transcript) return [];
  return transcript
    .split('\n')
    .filter((line) => !/^\s*\[[^\]]*\]\s*$/.test(line))
    .join(' ')
    // eslint-disable-next-line no-control-regex -- the subtitle words refuse control characters
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .filter((text) => text !== '')
    .slice(0, 5000)
    .map((text) => ({ text: text.slice(0, 200), start: 0, end: 0 }));
}
