import { describe, expect, it } from 'vitest';
import { timeLinesByRule } from './lyrics-timing.rules.js';
import { documentWords, sungWords, textWithWords, timeTokens, wordsFromLines } from './lyrics-words.rules.js';

const TEXT = '[Verse]\nHello big world\nSecond line\n\n[Chorus]\nLa la la';

describe("the word editor's words and the lyrics text", () => {
  it("starts from every sung word, its line's time shared by length; headers and blank lines have none", () => {
    const words = wordsFromLines([
      { text: '[Verse]', startTime: 0, endTime: 1, isHeader: true },
      { text: 'Hello big world', startTime: 1, endTime: 4.5, isHeader: false },
      { text: '', startTime: 4.5, endTime: 4.6, isHeader: false },
      { text: 'Bye', startTime: 7, endTime: 10, isHeader: false },
    ]);
    expect(words).toEqual([
      { text: 'Hello', start: 1, end: 2.346 },
      { text: 'big', start: 2.346, end: 3.154 },
      { text: 'world', start: 3.154, end: 4.5 },
      { text: 'Bye', start: 7, end: 10 },
    ]);
  });

  it('spreads untimed lyrics over the song by the line rule', () => {
    const words = documentWords({ text: 'one two\nthree four', lineTimes: null, words: null }, 20);
    expect(words.map((word) => [word.text, word.start, word.end])).toEqual([
      ['one', 0, 5],
      ['two', 5, 10],
      ['three', 10, 15.556],
      ['four', 15.556, 20],
    ]);
    expect(wordsFromLines(timeLinesByRule(TEXT.split('\n'), 100)).length).toBe(8);
  });

  it('keeps every line, header and blank line when the words are unchanged', () => {
    const words = wordsFromLines(timeLinesByRule(TEXT.split('\n'), 100));
    expect(textWithWords(TEXT, words)).toBe(TEXT);
  });

  it('puts an added word in the line of the word before it, a changed word where it was', () => {
    const words = wordsFromLines(timeLinesByRule(TEXT.split('\n'), 100));
    const added = [...words.slice(0, 3), { text: 'New', start: 0, end: 0 }, ...words.slice(3)];
    expect(textWithWords(TEXT, added)).toBe('[Verse]\nHello big world New\nSecond line\n\n[Chorus]\nLa la la');
    const split = [...words.slice(0, 3), { text: 'Sec', start: 0, end: 0 }, { text: 'ond', start: 0, end: 0 }, ...words.slice(4)];
    expect(textWithWords(TEXT, split)).toBe('[Verse]\nHello big world\nSec ond line\n\n[Chorus]\nLa la la');
    const typo = words.map((word) => (word.text === 'world' ? { ...word, text: 'wrld' } : word));
    expect(textWithWords(TEXT, typo)).toBe('[Verse]\nHello big wrld\nSecond line\n\n[Chorus]\nLa la la');
  });

  it('keeps each word in the line of the word it came from when that is known; a new word joins the one before it', () => {
    const words = wordsFromLines(timeLinesByRule(TEXT.split('\n'), 100)).map((word, token) => ({ ...word, token }));
    // "world" typed as "wide world": both stay in its line; a word added after it joins them.
    const edited = [
      ...words.slice(0, 2),
      { ...words[2]!, text: 'wide' },
      { ...words[2]!, text: 'world' },
      { text: 'New', start: 0, end: 0 },
      ...words.slice(3),
    ];
    expect(textWithWords(TEXT, edited)).toBe('[Verse]\nHello big wide world New\nSecond line\n\n[Chorus]\nLa la la');
    // A word moved before the last word of the line above takes that word with it: the text reads in sung order.
    const moved = [...words.slice(0, 2), words[3]!, words[2]!, ...words.slice(4)];
    expect(textWithWords(TEXT, moved)).toBe('[Verse]\nHello big\nSecond world line\n\n[Chorus]\nLa la la');
  });

  it('drops only the line whose words were all deleted', () => {
    const words = wordsFromLines(timeLinesByRule(TEXT.split('\n'), 100));
    expect(
      textWithWords(
        TEXT,
        words.filter((word) => word.text !== 'Second' && word.text !== 'line'),
      ),
    ).toBe('[Verse]\nHello big world\n\n[Chorus]\nLa la la');
  });

  it('builds lines from the words when the text has none', () => {
    expect(textWithWords('', [{ text: 'Hi', start: 0, end: 1 }])).toBe('Hi');
    expect(textWithWords('[Intro]', [{ text: 'Hi', start: 0, end: 1 }])).toBe('[Intro]\nHi');
  });

  it('stores one word per token, without brackets, in time order', () => {
    expect(
      sungWords([
        { text: ' New York ', start: 2, end: 3 },
        { text: '[Music]', start: 0, end: 1 },
      ]),
    ).toEqual([
      { text: '(Music)', start: 0, end: 1 },
      { text: 'New', start: 2, end: 2.429 },
      { text: 'York', start: 2.429, end: 3 },
    ]);
    expect(sungWords([{ text: 'a b', start: 0, end: 1, token: 4 }]).map((word) => word.token)).toEqual([4, 4]);
  });

  it('times the tokens the sent words name, the nearest in time when a word repeats; the rest keep theirs', () => {
    const current = [
      { text: 'La', start: 0, end: 1 },
      { text: 'la,', start: 1, end: 2 },
      { text: 'go', start: 2, end: 3 },
      { text: 'la', start: 10, end: 11 },
      { text: 'la', start: 11, end: 12 },
    ];
    const timed = timeTokens(current, [
      { text: 'la', start: 10.5, end: 10.9 },
      { text: 'LA', start: 11.2, end: 11.6 },
    ]);
    expect(timed.unmatched).toEqual([]);
    expect(timed.words).toEqual([
      { text: 'La', start: 0, end: 1 },
      { text: 'la,', start: 1, end: 2 },
      { text: 'go', start: 2, end: 3 },
      { text: 'la', start: 10.5, end: 10.9 },
      { text: 'la', start: 11.2, end: 11.6 },
    ]);
    expect(timeTokens(current, [{ text: 'New', start: 0, end: 0.4 }]).unmatched).toEqual([{ text: 'New', start: 0, end: 0.4 }]);
  });
});
