import { getLanguage, textDirection, type Language } from './i18n/i18n.store';

/**
 * Numbers that carry a unit or a sign ("+7.7 dB", "120 BPM", "5.3 MB", "45%") read left to right
 * in every language. Inside a Hebrew sentence the bidi algorithm would otherwise move the sign
 * and the unit to the wrong side ("dB 7.7+"), so every such number is shown as an isolated
 * left-to-right run: U+2066 (LEFT-TO-RIGHT ISOLATE) … U+2069 (POP DIRECTIONAL ISOLATE). The
 * marks are invisible and work inside plain strings (messages, titles, toasts, aria labels).
 * A left-to-right page gets the plain text: there the marks would change nothing on screen but
 * would split the spec's strings ("Uploading... 45%") for anyone who searches or copies them.
 */
export const LRI = '\u2066';
export const PDI = '\u2069';

/** `text` as an isolated left-to-right run in a right-to-left language; as it is otherwise. */
export function ltrRun(text: string, language: Language = getLanguage()): string {
  return textDirection(language) === 'rtl' ? `${LRI}${text}${PDI}` : text;
}

/** The units Encore shows after a number; "%" is written without a space, as the languages do. */
export type QuantityUnit = 'dB' | 'LUFS' | 'BPM' | 'kbps' | 'B' | 'KB' | 'MB' | 'GB' | '%';

export interface QuantityOptions {
  /** Write "+" before a positive value (gains); a negative value always has its "-". */
  signed?: boolean;
  /** Digits after the point; by default the number as it is. */
  fractionDigits?: number;
  /** The language the text is for; the one the app shows by default. */
  language?: Language;
}

/** "+7.7 dB", "120 BPM", "45%": the number and its unit as one isolated left-to-right run. */
export function formatQuantity(value: number, unit: QuantityUnit, options: QuantityOptions = {}): string {
  const number = options.fractionDigits === undefined ? String(value) : value.toFixed(options.fractionDigits);
  const sign = options.signed && value > 0 ? '+' : '';
  return ltrRun(`${sign}${number}${unit === '%' ? '' : ' '}${unit}`, options.language);
}
