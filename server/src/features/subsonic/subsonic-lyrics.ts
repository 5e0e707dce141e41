import { documentLines, timingOf, wordsPerLine, type LyricsDocument } from '@encore/common/lyrics-document.rules';
import { isHeaderLine, splitLines } from '@encore/common/lyrics-timing.rules';
import type { SongRecord } from '../library/library.port.js';
import type { SubsonicObject } from './subsonic-response.js';

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** The lyrics' text for getLyrics: the sung lines, without section headers. */
export function plainLyrics(document: LyricsDocument): string {
  return splitLines(document.text)
    .filter((line) => !isHeaderLine(line))
    .join('\n');
}

/**
 * getLyricsBySongId (songLyrics): one structured entry, synced when the lyrics have line or
 * word times. With `enhanced` (songLyrics 2), `kind` and a cueLine of word cues for each line
 * with timed words, each cue pointing at its word's UTF-8 bytes in the line.
 */
export function lyricsList(song: SongRecord, document: LyricsDocument | undefined, enhanced: boolean): SubsonicObject {
  if (!document || document.text.trim() === '') return { structuredLyrics: [] };
  const synced = timingOf(document) !== 'none';
  const timed = documentLines(document, song.durationSeconds);
  const wordsOfLines = document.words && document.words.length > 0 ? wordsPerLine(document.text, document.words) : [];
  const lines: SubsonicObject[] = [];
  const cueLines: SubsonicObject[] = [];
  splitLines(document.text).forEach((text, index) => {
    if (isHeaderLine(text)) return;
    const start = timed[index]?.startTime ?? 0;
    lines.push(synced ? { start: ms(start), value: text } : { value: text });
    const words = wordsOfLines[index] ?? [];
    if (!enhanced || words.length === 0) return;
    const cues = cuesOf(text, words);
    cueLines.push({
      index: lines.length - 1,
      start: ms(words[0]!.start),
      end: ms(words.at(-1)!.end),
      value: text,
      cue: cues,
    });
  });
  const entry: SubsonicObject = {
    displayArtist: song.artist ?? undefined,
    displayTitle: song.title ?? song.displayName,
    lang: 'xxx',
    offset: 0,
    synced,
    line: lines,
  };
  if (enhanced) {
    entry['kind'] = 'main';
    if (cueLines.length > 0) entry['cueLine'] = cueLines;
  }
  return { structuredLyrics: [entry] };
}

/** Each word's cue over its token in the line: the tokens are the line's words in order (how the words were counted). */
function cuesOf(text: string, words: readonly { start: number; end: number }[]): SubsonicObject[] {
  const cues: SubsonicObject[] = [];
  let cursor = 0;
  for (const word of words) {
    const match = /\S+/u.exec(text.slice(cursor));
    if (!match) break;
    const at = cursor + match.index;
    const token = match[0];
    const byteStart = Buffer.byteLength(text.slice(0, at), 'utf8');
    cues.push({ start: ms(word.start), end: ms(word.end), byteStart, byteEnd: byteStart + Buffer.byteLength(token, 'utf8') - 1, value: token });
    cursor = at + token.length;
  }
  return cues;
}
