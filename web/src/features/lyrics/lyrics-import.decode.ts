import { guessLegacyEncoding as guessFromBytes, type LegacyEncoding } from '@encore/common/lyrics-text.decode';
import type { MessageKey } from '../../lib/i18n/catalogue';
import type { Language } from '../../lib/i18n/i18n.store';

/**
 * An uploaded lyrics file as the import dialog reads it: the decoding is common's
 * (`lyrics-text.decode.ts`, the server reads `.lrc` files beside songs with the same); a file
 * that is not Unicode is shown in a code page the user may change while looking at the result.
 */

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
] as const satisfies readonly { encoding: LegacyEncoding; label: MessageKey }[];

/** A file's bytes (FileReader, which every browser and jsdom have, unlike Blob.arrayBuffer). */
export function readBytes(file: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** The code page to show first: what the bytes look like, else the reader's own language's. */
export function guessLegacyEncoding(bytes: Uint8Array, language: Language): LegacyEncoding {
  return guessFromBytes(bytes, language === 'he' ? 'windows-1255' : 'windows-1252');
}
