import { describe, expect, it } from 'vitest';
import { decodeLegacy, decodeLyricsBytes as decodeLyricsFile } from '@encore/common/lyrics-text.decode';
import { guessLegacyEncoding } from './lyrics-import.decode';
import { codePage, FRENCH_LRC, HEBREW_LRC, utf16be, utf16le } from './lyrics-import.fixtures';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('the text of an uploaded lyrics file', () => {
  it('reads UTF-16 by its byte order mark, little- and big-endian', () => {
    expect(decodeLyricsFile(utf16le(HEBREW_LRC))).toEqual({ kind: 'unicode', text: HEBREW_LRC });
    expect(decodeLyricsFile(utf16be(HEBREW_LRC))).toEqual({ kind: 'unicode', text: HEBREW_LRC });
  });

  it('reads UTF-16 without a byte order mark by its zero bytes', () => {
    expect(decodeLyricsFile(utf16le(HEBREW_LRC, false))).toEqual({ kind: 'unicode', text: HEBREW_LRC });
  });

  it('reads UTF-8 with or without its byte order mark', () => {
    expect(decodeLyricsFile(utf8(HEBREW_LRC))).toEqual({ kind: 'unicode', text: HEBREW_LRC });
    expect(decodeLyricsFile(utf8(`\uFEFF${HEBREW_LRC}`))).toEqual({ kind: 'unicode', text: HEBREW_LRC });
  });

  it('leaves a file that is not Unicode to a code page, Hebrew guessed from its letters', () => {
    const hebrew = codePage(HEBREW_LRC, 'windows-1255');
    expect(decodeLyricsFile(hebrew)).toEqual({ kind: 'legacy' });
    expect(guessLegacyEncoding(hebrew, 'en')).toBe('windows-1255');
    expect(decodeLegacy(hebrew, 'windows-1255')).toBe(HEBREW_LRC);

    const french = codePage(FRENCH_LRC, 'windows-1252');
    expect(decodeLyricsFile(french)).toEqual({ kind: 'legacy' });
    expect(guessLegacyEncoding(french, 'en')).toBe('windows-1252');
    expect(guessLegacyEncoding(french, 'he')).toBe('windows-1255');
    expect(decodeLegacy(french, 'windows-1252')).toBe(FRENCH_LRC);
  });
});
