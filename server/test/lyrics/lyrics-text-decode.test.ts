import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { decodeLyricsBytes, guessLegacyEncoding, lyricsTextOf } from '@encore/common/lyrics-text.decode';

/** The bytes another program saves the text as: iconv, not Encore's decoder, does the encoding (a server test: common's own tests use no Node built-ins). */
function encoded(text: string, encoding: string): Uint8Array {
  return new Uint8Array(execFileSync('iconv', ['-f', 'UTF-8', '-t', encoding], { input: text }));
}

const CHINESE = '[ti:月亮代表我的心]\n[00:12.30]你问我爱你有多深\n[00:18.00]我爱你有几分\n[00:24.50]我的情也真 我的爱也真\n';
const JAPANESE = '[00:05.00]さくら さくら\n[00:09.00]やよいの空は 見わたすかぎり\n[00:14.00]かすみか雲か\n';
const KOREAN = '[00:03.00]아리랑 아리랑 아라리요\n[00:08.00]아리랑 고개로 넘어간다\n';
const HEBREW = '[00:01.00]שלום עולם\n[00:04.50]לילה טוב\n';
const FRENCH = '[00:01.00]Café crème à la fenêtre\n[00:03.00]Déjà vu\n';

describe('the text of a lyrics file', () => {
  it('reads UTF-16 with its byte order mark, little- and big-endian, without the mark in the text', () => {
    // iconv's UTF-16 writes a byte order mark, as Windows editors do.
    for (const encoding of ['UTF-16', 'UTF-16LE', 'UTF-16BE']) {
      const bytes = encoded(CHINESE, encoding);
      expect(lyricsTextOf(bytes), encoding).toBe(CHINESE);
    }
    const marked = encoded(`\uFEFF${CHINESE}`, 'UTF-16LE');
    expect(lyricsTextOf(marked).startsWith('[ti:')).toBe(true);
  });

  it('reads UTF-8 with or without its mark', () => {
    expect(lyricsTextOf(new TextEncoder().encode(`\uFEFF${HEBREW}`))).toBe(HEBREW);
    expect(decodeLyricsBytes(new TextEncoder().encode(JAPANESE))).toEqual({ kind: 'unicode', text: JAPANESE });
  });

  it('guesses the code page of a file that is not Unicode from its bytes', () => {
    const cases: [string, string, string][] = [
      [CHINESE, 'GBK', 'gbk'],
      [JAPANESE, 'SHIFT_JIS', 'shift_jis'],
      [KOREAN, 'EUC-KR', 'euc-kr'],
      [HEBREW, 'WINDOWS-1255', 'windows-1255'],
      [FRENCH, 'WINDOWS-1252', 'windows-1252'],
    ];
    for (const [text, iconvName, encoding] of cases) {
      const bytes = encoded(text, iconvName);
      expect(decodeLyricsBytes(bytes), encoding).toEqual({ kind: 'legacy' });
      expect(guessLegacyEncoding(bytes), encoding).toBe(encoding);
      expect(lyricsTextOf(bytes), encoding).toBe(text);
    }
    // Western text is never taken for a double-byte page, whatever the reader's fallback.
    expect(guessLegacyEncoding(encoded(FRENCH, 'WINDOWS-1252'), 'windows-1255')).toBe('windows-1255');
  });
});
