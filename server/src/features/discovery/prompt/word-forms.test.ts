import { describe, expect, it } from 'vitest';
import { correctTypo, editDistance, hasTheme, stem, textStems } from './word-forms.js';

describe('word forms', () => {
  it('gives close forms one stem, English and Hebrew', () => {
    expect(new Set(['leave', 'leaving', 'leaves', 'left'].map(stem))).toEqual(new Set(['leav']));
    expect(new Set(['love', 'loved', 'loving'].map(stem))).toEqual(new Set(['lov']));
    expect(stem('seas')).toBe(stem('sea'));
    expect(new Set(['בית', 'בתים', 'ביתי'].map(stem)).size).toBe(1);
    expect(new Set(['עזיבת', 'עזבתי', 'עוזב'].map(stem)).size).toBe(1);
    expect(new Set(['אהבה', 'אוהב', 'אוהבת'].map(stem)).size).toBe(1);
  });

  it('finds a theme in lyrics by all its words, prefixes and related words included', () => {
    expect(hasTheme(textStems('I left the house where I grew up'), 'leaving home')).toBe(true);
    expect(hasTheme(textStems('the way back home'), 'leaving home')).toBe(false);
    expect(hasTheme(textStems('the ocean waves'), 'sea')).toBe(true);
    expect(hasTheme(textStems('הגלים בים'), 'הים')).toBe(true);
    expect(hasTheme(textStems('city lights'), 'sea')).toBe(false);
  });

  it('reads a typo of one edit in a word of five letters or more, when only one known word is that close', () => {
    const known = ['energetic', 'melancholic', 'relaxing', 'calm', 'quiet', 'dance', 'dinner'];
    expect(correctTypo('enrgetic', known)).toBe('energetic');
    expect(correctTypo('melancolic', known)).toBe('melancholic');
    expect(correctTypo('relaxinng', known)).toBe('relaxing');
    expect(correctTypo('calmm', known)).toBeUndefined(); // "calm" is under five letters
    expect(correctTypo('quite', known)).toBeUndefined(); // a real word
    expect(correctTypo('energetic', known)).toBeUndefined(); // no typo
    expect(correctTypo('enrgetik', known)).toBeUndefined(); // two edits
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });
});
