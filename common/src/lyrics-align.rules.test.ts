import { describe, expect, it } from 'vitest';
import { realignWords } from './lyrics-align.rules.js';
import { buildLinesFromWords, textFromWords } from './lyrics-lines.rules.js';
import { documentFromWords, documentLines, editDocument, exportLyrics, importLyrics } from './lyrics-document.rules.js';
import type { Word } from './words.contract.js';

const w = (text: string, start: number, end: number): Word => ({ text, start, end });

describe('word re-alignment after an edit', () => {
  const old = [w('I', 1, 1.2), w('walk', 1.2, 1.6), w('the', 1.6, 1.8), w('line', 1.8, 2.4), w('tonight', 5, 6)];
  it('keeps unchanged words and re-times only a replaced word', () => {
    const words = realignWords(old, ['I', 'walked', 'the', 'line', 'tonight']);
    expect(words).toEqual([w('I', 1, 1.2), w('walked', 1.2, 1.6), w('the', 1.6, 1.8), w('line', 1.8, 2.4), w('tonight', 5, 6)]);
  });
  it('ignores case and punctuation when matching, keeping the new spelling', () => {
    expect(realignWords(old, ['i', 'Walk,', 'the', 'line!', 'tonight'])[3]).toEqual(w('line!', 1.8, 2.4));
  });
  it('spreads inserted words over the gap between their neighbours', () => {
    const words = realignWords(old, ['I', 'walk', 'the', 'line', 'all', 'day', 'tonight']);
    expect(words[4]!.start).toBe(2.4);
    expect(words[5]!.end).toBe(5);
    expect(words[6]).toEqual(w('tonight', 5, 6));
  });
  it('drops deleted words without moving the rest', () => {
    expect(realignWords(old, ['I', 'line', 'tonight'])).toEqual([w('I', 1, 1.2), w('line', 1.8, 2.4), w('tonight', 5, 6)]);
  });
});

describe('lines from words', () => {
  it('breaks at pauses and sentence ends, and starts a stanza after a long silence', () => {
    const words = [
      w('Hello', 0, 0.4),
      w('world.', 0.4, 0.8),
      w('How', 0.9, 1.1),
      w('are', 1.1, 1.3),
      w('you', 1.3, 1.5),
      w('now', 2.5, 2.8),
      w('again', 7, 7.5),
    ];
    expect(textFromWords(words)).toBe('Hello world.\nHow are you\nnow\n\nagain');
    expect(buildLinesFromWords([])).toEqual([]);
  });
  it('caps a line at twelve words', () => {
    const words = Array.from({ length: 30 }, (_, i) => w(`w${i}`, i * 0.3, i * 0.3 + 0.25));
    expect(buildLinesFromWords(words).map((line) => line.to - line.from)).toEqual([12, 12, 6]);
  });
});

describe('the lyrics document', () => {
  it('imports ELRC with headers and exports it back', () => {
    const source = '[Verse]\n[00:01.00]<00:01.00>Hello <00:01.50>world <00:02.00>\n[00:03.00]<00:03.00>Bye <00:03.40>\n';
    const imported = importLyrics(source);
    expect(imported.format).toBe('elrc');
    expect(imported.document.text).toBe('[Verse]\nHello world\nBye');
    expect(imported.document.words).toHaveLength(3);
    const lines = documentLines(imported.document, 10);
    // The untimed header has no time of its own: it sits where the first timed line starts.
    expect(lines[0]).toMatchObject({ isHeader: true, startTime: 1, endTime: 1 });
    expect(lines[1]).toMatchObject({ startTime: 1, endTime: 2 });
    expect(lines[2]).toMatchObject({ startTime: 3, endTime: 3.4 });
    const again = importLyrics(exportLyrics(imported.document, 'elrc', 10));
    expect(again.document.words).toEqual(imported.document.words);
  });
  it('keeps line times of unchanged lines when the text is edited', () => {
    const imported = importLyrics('[00:01.00]one\n[00:05.00]two\n[00:09.00]three');
    const edited = editDocument(imported.document, 'one\ntwo changed\nthree', 20);
    expect(edited.lineTimes).toEqual([{ start: 1, end: null }, null, { start: 9, end: null }]);
    // The changed line lost its time, and no time is made up for it: it lasts nothing where
    // the line before it ends, and the exports write it untimed.
    expect(documentLines(edited, 20).map((line) => [line.startTime, line.endTime])).toEqual([
      [1, 9],
      [9, 9],
      [9, 20],
    ]);
    expect(exportLyrics(edited, 'lrc', 20)).toBe('[00:01.00]one\ntwo changed\n[00:09.00]three\n');
  });
  it('keeps unchanged word times through an edit of the text', () => {
    const document = documentFromWords([w('la', 0, 1), w('di', 1, 2), w('da', 2, 3)]);
    const edited = editDocument(document, '[Chorus]\nla DO da', 3);
    expect(edited.words).toEqual([w('la', 0, 1), w('DO', 1, 2), w('da', 2, 3)]);
  });
  it('turns bracketed transcription words into sung text', () => {
    expect(documentFromWords([w('[Music]', 0, 1), w('hi', 1, 2)]).text).toBe('(Music) hi');
  });
  it('imports plain text as is and SRT with times', () => {
    expect(importLyrics('\n\nLine one  \r\n[Chorus]\nLine two\n\n').document).toEqual({ text: 'Line one\n[Chorus]\nLine two', lineTimes: null, words: null });
    expect(importLyrics('1\n00:00:01,000 --> 00:00:02,000\nHi\n').format).toBe('srt');
  });
});
