import { describe, expect, it } from 'vitest';
import { DEFAULT_TEXT_STYLE, textStyleSchema, withTextStyleDefaults } from './text-style.contract.js';
import { newWordAfter, wordSchema } from './words.contract.js';

describe('text style', () => {
  it('accepts the spec defaults and maps "middle" to center', () => {
    expect(textStyleSchema.parse(DEFAULT_TEXT_STYLE)).toEqual(DEFAULT_TEXT_STYLE);
    expect(textStyleSchema.parse({ ...DEFAULT_TEXT_STYLE, textPosition: 'middle' }).textPosition).toBe('center');
  });
  it('refuses values outside the sliders', () => {
    expect(textStyleSchema.safeParse({ ...DEFAULT_TEXT_STYLE, fontSize: 73 }).success).toBe(false);
    expect(textStyleSchema.safeParse({ ...DEFAULT_TEXT_STYLE, lineHeight: 0.7 }).success).toBe(false);
    expect(textStyleSchema.safeParse({ ...DEFAULT_TEXT_STYLE, textColor: 'url(x)' }).success).toBe(false);
  });
  it('fills a partial style from the defaults', () => {
    expect(withTextStyleDefaults({ fontSize: 40, textStyles: { bold: true, italic: false, underline: false } })).toMatchObject({
      fontSize: 40,
      animation: 'fade',
      textStyles: { bold: true },
    });
  });
});

describe('words', () => {
  it('adds a new word 0.1 s after the previous one, 0.4 s long', () => {
    expect(newWordAfter(undefined)).toEqual({ text: 'New', start: 0, end: 0.4 });
    expect(newWordAfter({ text: 'a', start: 1, end: 1.5 })).toEqual({ text: 'New', start: 1.6, end: 2 });
  });
  it('refuses negative, reversed and non-numeric times', () => {
    expect(wordSchema.safeParse({ text: 'a', start: -1, end: 1 }).success).toBe(false);
    expect(wordSchema.safeParse({ text: 'a', start: 2, end: 1 }).success).toBe(false);
    expect(wordSchema.safeParse({ text: 'a', start: '1', end: 2 }).success).toBe(false);
    expect(wordSchema.safeParse({ text: 'a', start: Number.NaN, end: 2 }).success).toBe(false);
  });
});
