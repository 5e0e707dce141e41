import { describe, expect, it } from 'vitest';
import { documentLines, exportLyrics, importLyrics, timingOf } from './lyrics-document.rules.js';
import { parseSrt } from './lyrics-srt.format.js';
import { currentLineIndex } from './lyrics-timing.rules.js';

const spans = (lines: { startTime: number; endTime: number }[]) => lines.map((line) => [line.startTime, line.endTime]);

/** Files as other projects write them, through import, the line model and the exports. */
describe('lyrics documents from other projects', () => {
  it('starts a line at its own [mm:ss] tag when its first word tag is later, in the lines and the exports', () => {
    const { document } = importLyrics('[00:10.00]<00:10.60>Hello <00:11.00>world <00:11.50>\r\n[00:14.00]<00:14.20>Again <00:15.00>\r\n');
    expect(timingOf(document)).toBe('word');
    expect(documentLines(document, 20).map((line) => line.startTime)).toEqual([10, 14]);
    expect(exportLyrics(document, 'lrc', 20)).toBe('[00:10.00]Hello world\n[00:14.00]Again\n[00:15.00]\n');
    expect(exportLyrics(document, 'elrc', 20)).toBe('[00:10.00]<00:10.60>Hello <00:11.00>world <00:11.50>\n[00:14.00]<00:14.20>Again <00:15.00>\n');
    expect(exportLyrics(document, 'srt', 20)).toContain('00:00:10,000 --> 00:00:11,500\nHello world');
  });

  it('reads foobar2000 word tags as the words of a document', () => {
    const { document, format } = importLyrics('[00:12.00]Hello [00:12.50]world [00:13.00]\n[00:14.00]Next [00:14.40]line [00:15.00]\n');
    expect(format).toBe('elrc');
    expect(document.text).toBe('Hello world\nNext line');
    expect(document.words?.map((word) => word.start)).toEqual([12, 12.5, 14, 14.4]);
  });

  it('makes metadata of unknown tags and drops invalid times without inventing header lines', () => {
    const { document } = importLyrics('[id:abc123]\n[t_time:(03:14)]\n[00:01.00]First\n[00:-03.00]\n[02:83.37]Typo line\n[00:05.00]Last\n');
    expect(document.text).toBe('First\nTypo line\nLast');
    const lines = documentLines(document, 10);
    expect(lines.some((line) => line.isHeader)).toBe(false);
    expect(exportLyrics(document, 'lrc', 10)).toBe('[00:01.00]First\nTypo line\n[00:05.00]Last\n');
  });

  describe('a timed file with untimed lines', () => {
    // A title line above the times, an untimed section header and a stanza break between them.
    const source =
      '\uFEFF[ar:Nova]\r\nNova - Blue Hour\r\n[00:05.00]First line\r\n[Chorus]\r\n\r\n[00:10.00]Second line\r\nUntimed after\r\n[00:15.00]Third line\r\n';
    const { document } = importLyrics(source);

    it('keeps them untimed in the document', () => {
      expect(document.text).toBe('Nova - Blue Hour\nFirst line\n[Chorus]\n\nSecond line\nUntimed after\nThird line');
      expect(document.lineTimes?.map((time) => time?.start ?? null)).toEqual([null, 5, null, null, 10, null, 15]);
    });

    it('gives them no time of their own in the lines: they sit where the timed line before them ends, and karaoke passes over them', () => {
      const lines = documentLines(document, 30);
      expect(spans(lines)).toEqual([
        [5, 5],
        [5, 10],
        [10, 10],
        [10, 10],
        [10, 15],
        [15, 15],
        [15, 30],
      ]);
      expect(currentLineIndex(lines, 2)).toBe(-1);
      expect(lines[currentLineIndex(lines, 7)]!.text).toBe('First line');
      expect(lines[currentLineIndex(lines, 12)]!.text).toBe('Second line');
      expect(lines[currentLineIndex(lines, 20)]!.text).toBe('Third line');
    });

    it('writes them without a time in LRC and ELRC and leaves them out of SRT', () => {
      const lrc = 'Nova - Blue Hour\n[00:05.00]First line\n[Chorus]\n\n[00:10.00]Second line\nUntimed after\n[00:15.00]Third line\n';
      expect(exportLyrics(document, 'lrc', 30)).toBe(lrc);
      expect(exportLyrics(document, 'elrc', 30)).toBe(lrc);
      expect(parseSrt(exportLyrics(document, 'srt', 30))).toEqual([
        { text: 'First line', time: { start: 5, end: 10 } },
        { text: 'Second line', time: { start: 10, end: 15 } },
        { text: 'Third line', time: { start: 15, end: 30 } },
      ]);
      expect(importLyrics(lrc).document).toEqual(document);
    });
  });

  it('still times lyrics without any time by the rule, in the lines and the exports', () => {
    const { document } = importLyrics('One\nTwo');
    expect(spans(documentLines(document, 10))).toEqual([
      [0, 5],
      [5, 10],
    ]);
    expect(exportLyrics(document, 'lrc', 10)).toBe('[00:00.00]One\n[00:05.00]Two\n');
  });

  it('ends the last line at a trailing blank time tag, in the lines and every export', () => {
    const { document } = importLyrics('[00:01.00]One\n[00:03.00]Two\n[03:10.00]\n');
    expect(document.text).toBe('One\nTwo');
    expect(spans(documentLines(document, 240))).toEqual([
      [1, 3],
      [3, 190],
    ]);
    expect(exportLyrics(document, 'lrc', 240)).toBe('[00:01.00]One\n[00:03.00]Two\n[03:10.00]\n');
    expect(exportLyrics(document, 'srt', 240)).toContain('00:00:03,000 --> 00:03:10,000\nTwo');
    // Without it the last line lasts to the song's end.
    expect(documentLines(importLyrics('[00:01.00]One\n[00:03.00]Two\n').document, 240).at(-1)!.endTime).toBe(240);
  });
});
