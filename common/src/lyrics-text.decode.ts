/**
 * The text of a lyrics file's bytes, the one decoder every way lyrics come in uses (the web's
 * import, an `.lrc` beside a song in a music folder or an imported folder). Lyrics files from
 * players and lyric sites come as UTF-8, as UTF-16 (Windows editors, usually with a byte order
 * mark), or in an 8-bit or double-byte code page of their language (Windows-1252, Windows-1255
 * Hebrew, GBK Chinese...) that nothing in the file names. Unicode is recognised (a byte order
 * mark, UTF-16's zero bytes, else strictly valid UTF-8); anything else is a legacy code page,
 * guessed from its bytes (the web lets the user correct the guess while looking at the result).
 */

/** The code pages a file that is not Unicode may be in, as TextDecoder names them. */
export const LEGACY_ENCODING_NAMES = [
  'windows-1252',
  'windows-1255',
  'windows-1256',
  'windows-1251',
  'koi8-r',
  'windows-1250',
  'windows-1253',
  'windows-1254',
  'gbk',
  'big5',
  'shift_jis',
  'euc-kr',
] as const;

export type LegacyEncoding = (typeof LEGACY_ENCODING_NAMES)[number];

export type DecodedLyricsBytes = { kind: 'unicode'; text: string } | { kind: 'legacy' };

export function decodeLyricsBytes(bytes: Uint8Array): DecodedLyricsBytes {
  const unicode = byteOrder(bytes) ?? (strictly(bytes, 'utf-8') !== undefined ? 'utf-8' : null);
  if (!unicode) return { kind: 'legacy' };
  // TextDecoder drops the byte order mark of the encoding it decodes.
  return { kind: 'unicode', text: new TextDecoder(unicode).decode(bytes) };
}

export function decodeLegacy(bytes: Uint8Array, encoding: LegacyEncoding): string {
  return new TextDecoder(encoding).decode(bytes);
}

/** The text with nobody to ask: Unicode as it is, else the code page guessed from the bytes. */
export function lyricsTextOf(bytes: Uint8Array): string {
  const decoded = decodeLyricsBytes(bytes);
  return decoded.kind === 'unicode' ? decoded.text : decodeLegacy(bytes, guessLegacyEncoding(bytes));
}

/**
 * The code page to show first: Hebrew when the bytes above ASCII are runs of Windows-1255's
 * letters (whole words of them, as Hebrew is written); a double-byte code page when the bytes
 * decode in it without error and read as that script (Korean Hangul, Japanese kana, Chinese
 * characters); else `fallback` (the reader's own language's, Western by default).
 */
export function guessLegacyEncoding(bytes: Uint8Array, fallback: LegacyEncoding = 'windows-1252'): LegacyEncoding {
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
  // Double-byte text has every byte above ASCII in a pair; Western text has them one by one.
  if (high > 0 && inRuns >= high * 0.8) return doubleByte(bytes) ?? fallback;
  return fallback;
}

/** Which of the East Asian code pages the bytes are: the first that decodes them without error into its own script. */
function doubleByte(bytes: Uint8Array): LegacyEncoding | undefined {
  for (const { encoding, script, share } of DOUBLE_BYTE) {
    const text = strictly(bytes, encoding);
    if (text === undefined) continue;
    let wide = 0;
    let inScript = 0;
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code < 0x80) continue;
      wide += 1;
      if (script.some(([from, to]) => code >= from && code <= to)) inScript += 1;
    }
    if (wide > 0 && inScript >= wide * share) return encoding;
  }
  return undefined;
}

const HAN: [number, number][] = [
  [0x3000, 0x303f], // CJK punctuation
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xff00, 0xffef], // full-width forms
];

/**
 * In order: Korean is Hangul almost throughout (Chinese read as EUC-KR is Hangul only in part);
 * Japanese has kana throughout (Chinese read as Shift_JIS is half-width katakana, outside the
 * range); then Chinese, the simplified code page first (GBK reads most Big5 text too).
 */
const DOUBLE_BYTE: { encoding: LegacyEncoding; script: [number, number][]; share: number }[] = [
  { encoding: 'euc-kr', script: [[0xac00, 0xd7af]], share: 0.9 },
  { encoding: 'shift_jis', script: [[0x3040, 0x30ff]], share: 0.2 },
  { encoding: 'gbk', script: HAN, share: 0.9 },
  { encoding: 'big5', script: HAN, share: 0.9 },
];

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

function strictly(bytes: Uint8Array, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
