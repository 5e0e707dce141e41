import { describe, expect, it } from 'vitest';
import { buildClipSubtitles } from './clip-subtitles.js';
import { clipText, wordsOfLines } from './clip-text.js';
import { documentLines, importLyrics } from './lyrics-document.rules.js';
import { DEFAULT_TEXT_STYLE } from './text-style.contract.js';

const dialogues = (ass: string) => ass.split('\n').filter((line) => line.startsWith('Dialogue: 1,'));

/** The lyrics as the lyrics model gives them: lines timed (SPEC 9's rule where they have no times), and the words. */
function lyricsOf(source: string, durationSeconds: number) {
  const { document } = importLyrics(source);
  return { lines: documentLines(document, durationSeconds), words: document.words };
}

describe('the clip text', () => {
  it('an untimed song: its lines spread by SPEC 9 (headers take their share and are not drawn), each line’s words share its time', () => {
    const lyrics = lyricsOf('[Verse]\nHello bright world\nSecond line here', 10);
    const text = clipText([], lyrics);
    expect(text.from).toBe('lyrics-lines');
    expect(text.karaoke).toBe(false);
    // 20 % to the header (a half line): the header 0-2 s; the two lines 4 s each; the last one to the end.
    expect(lyrics.lines.map((line) => [line.startTime, line.endTime])).toEqual([
      [0, 2],
      [2, 6],
      [6, 10],
    ]);
    expect(text.words.map((word) => word.text)).toEqual(['Hello', 'bright', 'world', 'Second', 'line', 'here']);
    expect(text.words[0]).toEqual({ text: 'Hello', start: 2, end: 2 + 4 / 3, lineStart: true });
    expect(text.words[2]?.end).toBe(6);
    expect(text.words[3]).toMatchObject({ text: 'Second', start: 6, lineStart: true });
    expect(text.words.filter((word) => word.lineStart)).toHaveLength(2);
  });

  it('a line-timed song (LRC): each line at its own time, its words sharing it', () => {
    const lyrics = lyricsOf('[00:01.00]First line\n[00:03.50]Then the second\n[00:05.00]Last', 8);
    const text = clipText([], lyrics);
    expect(text).toMatchObject({ from: 'lyrics-lines', karaoke: false });
    expect(text.words.map((word) => [word.text, word.start, word.end])).toEqual([
      ['First', 1, 2.25],
      ['line', 2.25, 3.5],
      ['Then', 3.5, 4],
      ['the', 4, 4.5],
      ['second', 4.5, 5],
      ['Last', 5, 8],
    ]);
  });

  it('the editor’s words first, then the lyrics’ word timings (karaoke), then nothing', () => {
    const lyrics = lyricsOf('[00:00.50]<00:00.50>Hello <00:01.00>world', 4);
    expect(clipText([{ text: 'Mine', start: 1, end: 2 }], lyrics)).toEqual({ words: [{ text: 'Mine', start: 1, end: 2 }], karaoke: true, from: 'words' });
    expect(clipText([], lyrics)).toMatchObject({
      from: 'lyrics-words',
      karaoke: true,
      words: [
        { text: 'Hello', start: 0.5 },
        { text: 'world', start: 1 },
      ],
    });
    expect(clipText([], null)).toMatchObject({ words: [], from: 'none' });
    expect(
      clipText([], {
        lines: [
          { text: '[Chorus]', startTime: 0, endTime: 4, isHeader: true },
          { text: '  ', startTime: 4, endTime: 4.1, isHeader: false },
        ],
        words: null,
      }).from,
    ).toBe('none');
    expect(wordsOfLines([])).toEqual([]);
  });

  it('draws lines plain, each lyrics line on a screen of its own, at the line’s time within the clip', () => {
    const lyrics = lyricsOf('[00:01.00]First line\n[00:03.50]Then the second\n[00:05.00]Last', 8);
    const ass = buildClipSubtitles({
      ...clipText([], lyrics),
      style: { ...DEFAULT_TEXT_STYLE, showBackground: false },
      width: 640,
      height: 360,
      start: 0.5,
      end: 5.5,
    });
    const events = dialogues(ass);
    expect(events).toHaveLength(3);
    // Clip time: the song's 1 s is 0.5 s; a screen opens 0.25 s before its line.
    expect(events[0]).toMatch(/^Dialogue: 1,0:00:00\.25,0:00:02\.75,.*First line$/);
    expect(events[1]).toMatch(/^Dialogue: 1,0:00:02\.75,0:00:04\.25,.*Then the second$/);
    expect(events[2]).toMatch(/^Dialogue: 1,0:00:04\.25,0:00:05\.00,.*Last$/);
    expect(ass).not.toContain('\\k');
  });
});
