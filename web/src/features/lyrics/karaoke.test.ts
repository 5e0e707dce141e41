import { describe, expect, it } from 'vitest';
import { activeLineIndex, isRightToLeft, wordFill, wordsByLine, type TimedLine } from './karaoke';

const line = (text: string, startTime: number, endTime: number, isHeader = false): TimedLine => ({ text, startTime, endTime, isHeader });

const lines = [line('[Verse]', 0, 2, true), line('hello world', 2, 5), line('', 5, 5.1), line('sing along', 5.1, 9)];

describe('karaoke', () => {
  it('finds the line that has started: none before the first, the last one after the end', () => {
    const timed = lines.slice(1);
    expect(activeLineIndex(timed, 1)).toBe(-1);
    expect(activeLineIndex(timed, 2)).toBe(0);
    expect(activeLineIndex(timed, 4.99)).toBe(0);
    expect(activeLineIndex(timed, 5.05)).toBe(1);
    expect(activeLineIndex(timed, 100)).toBe(2);
    expect(activeLineIndex([], 3)).toBe(-1);
  });

  it('finds the line among many as a linear scan would', () => {
    const many = Array.from({ length: 500 }, (_, i) => line(`l${i}`, i * 0.5, i * 0.5 + 0.5));
    for (const time of [0, 0.2, 13.7, 124.5, 249.9, 400]) {
      const expected = many.findLastIndex((candidate) => candidate.startTime <= time);
      expect(activeLineIndex(many, time)).toBe(expected);
    }
  });

  it('gives each sung line its words, by time', () => {
    const words = [
      { text: 'hello', start: 2.1, end: 2.6 },
      { text: 'world', start: 2.7, end: 3.4 },
      { text: 'sing', start: 5.2, end: 5.8 },
      { text: 'along', start: 6, end: 7 },
    ];
    expect(wordsByLine(lines, words).map((group) => group.map((word) => word.text))).toEqual([[], ['hello', 'world'], [], ['sing', 'along']]);
    // A word before the first line, or in a header's span, goes to the first sung line.
    expect(wordsByLine(lines, [{ text: 'early', start: 0.5, end: 1 }])[1]).toHaveLength(1);
    expect(wordsByLine(lines, []).every((group) => group.length === 0)).toBe(true);
  });

  it('fills a word as it is sung', () => {
    const word = { text: 'la', start: 1, end: 2 };
    expect(wordFill(word, 0.5)).toBe(0);
    expect(wordFill(word, 1.25)).toBeCloseTo(0.25);
    expect(wordFill(word, 2)).toBe(1);
    expect(wordFill({ text: 'x', start: 1, end: 1 }, 1.01)).toBe(1);
  });

  it('reads Hebrew lyrics right to left', () => {
    expect(isRightToLeft('שיר של יום')).toBe(true);
    expect(isRightToLeft('hello עולם world')).toBe(false);
    expect(isRightToLeft('[Chorus]\nלה לה לה')).toBe(true);
  });
});
