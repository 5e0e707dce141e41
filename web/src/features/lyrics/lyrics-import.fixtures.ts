/** Lyrics files as other programs save them, byte for byte, for the import tests. */

/** A Hebrew LRC as a Windows editor saves it in Windows-1255 (one byte per letter). */
export const HEBREW_LRC = '[ti:שיר]\r\n[00:01.00]שלום עולם\r\n[00:04.50]לילה טוב\r\n';
/** French text in Windows-1252 (é is 0xE9). */
export const FRENCH_LRC = '[00:01.00]Café crème à la fenêtre\r\n[00:03.00]Déjà vu\r\n';

export function utf16le(text: string, bom = true): Uint8Array {
  const bytes = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const units = (bom ? '\uFEFF' : '') + text;
  for (let i = 0; i < units.length; i += 1) {
    bytes[i * 2] = units.charCodeAt(i) & 0xff;
    bytes[i * 2 + 1] = units.charCodeAt(i) >> 8;
  }
  return bytes;
}

export function utf16be(text: string): Uint8Array {
  const le = utf16le(text);
  const be = new Uint8Array(le.length);
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1]!;
    be[i + 1] = le[i]!;
  }
  return be;
}

/** Windows-1255 (Hebrew letters at 0xE0-0xFA) or Windows-1252 (Latin-1 letters as themselves). */
export function codePage(text: string, encoding: 'windows-1255' | 'windows-1252'): Uint8Array {
  return Uint8Array.from([...text], (char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return code;
    if (encoding === 'windows-1255' && code >= 0x5d0 && code <= 0x5ea) return 0xe0 + code - 0x5d0;
    if (encoding === 'windows-1252' && code >= 0xa0 && code <= 0xff) return code;
    throw new Error(`${char} is not in ${encoding}`);
  });
}
