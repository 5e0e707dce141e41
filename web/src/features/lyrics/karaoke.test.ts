import { describe, expect, it } from 'vitest';
import { isRightToLeft, wordFill } from './karaoke';

describe('karaoke', () => {
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
