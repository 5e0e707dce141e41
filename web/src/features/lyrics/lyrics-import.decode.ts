import type { MessageKey } from '../../lib/i18n/catalogue';
import type { Language } from '../../lib/i18n/i18n.store';

/**
 * The text of an uploaded lyrics file. Lyrics files from players and lyric sites come as
 * UTF-8, as UTF-16 (Windows editors, with a byte order mark), or in an 8-bit code page of
 * their language (Windows-1252, Windows-1255 Hebrew...) that nothing in the file names.
 * Unicode is recognised (a byte order mark, else valid UTF-8); a file that is neither is
 * decoded with a code page the user picks while looking at the result.
 */

export type DecodedLyricsFile = { kind: 'unicode'; text: string } | { kind: 'legacy' };

/** The code pages offered for a file that is not Unicode, as TextDecoder names them. */
export const LEGACY_ENCODINGS = [
  { encoding: 'windows-1252', label: 'lyricsEncodingWestern' },
  { encoding: 'windows-1255', label: 'lyricsEncodingHebrew' },
  { encoding: 'windows-1256', label: 'lyricsEncodingArabic' },
  { encoding: 'windows-1251', label: 'lyricsEncodingCyrillic' },
  { encoding: 'koi8-r', label: 'lyricsEncodingKoi8' },
  { encoding: 'windows-1250', label: 'lyricsEncodingCentral' },
  { encoding: 'windows-1253', label: 'lyricsEncodingGreek' },
  { encoding: 'windows-1254', label: 'lyricsEncodingTurkish' },
  { encoding: 'gbk', label: 'lyricsEncodingChineseSimplified' },
  { encoding: 'big5', label: 'lyricsEncodingChineseTraditional' },
  { encoding: 'shift_jis', label: 'lyricsEncodingJapanese' },
  { encoding: 'euc-kr', label: 'lyricsEncodingKorean' },
] as const satisfies readonly { encoding: string; label: MessageKey }[];

export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number]['encoding'];

/** A file's bytes (FileReader, which every browser and jsdom have, unlike Blob.arrayBuffer). */
export function readBytes(file: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

export function decodeLyricsFile(bytes: Uint8Array): DecodedLyricsFile {
  const unicode = byteOrder(bytes) ?? (isUtf8(bytes) ? 'utf-8' : null);
  if (!unicode) return { kind: 'legacy' };
  // TextDecoder drops the byte order mark of the encoding it decodes.
  return { kind: 'unicode', text: new TextDecoder(unicode).decode(bytes) };
}

export function decodeLegacy(bytes: Uint8Array, encoding: LegacyEncoding): string {
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * The code page to show first: Hebrew when the bytes above ASCII are runs of Windows-1255's
 * letters (whole words of them, as Hebrew is written), else the reader's own language's.
 */
export function guessLegacyEncoding(bytes: Uint8Array, language: Language): LegacyEncoding {
  let high = 0;
  let hebrewLetters = 0;
  let inRuns = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (byte < 0x80) continue;
    high += 1;
    if (byte >= 0xe0 && byte <= 0xfa) hebrewLetters += 1;
    if ((bytes[i - 1] ?? 0) >= 0x80 || (bytes[i + 1] ?? 0) >= 0x80) inRuns += 1;
  }
  if (high > 0 && hebrewLetters >= high * 0.9 && inRuns >= high * 0.6) return 'windows-1255';
  return language === 'he' ? 'windows-1255' : 'windows-1252';
}

function byteOrder(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  // UTF-16 without a mark: text with any Latin in it has a zero byte in every other place.
  // (Zero bytes are valid UTF-8, so the check below would take it for UTF-8.)
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096) & ~1);
  if (sample.length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros += 1;
    if (sample[i + 1] === 0) oddZeros += 1;
  }
  const pairs = sample.length / 2;
  // A few zeros on the other side are characters such as U+4E00 (low byte zero).
  if (oddZeros >= pairs * 0.3 && evenZeros <= pairs * 0.05) return 'utf-16le';
  if (evenZeros >= pairs * 0.3 && oddZeros <= pairs * 0.05) return 'utf-16be';
  return null;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
