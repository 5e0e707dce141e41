import type { Language } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const KB = 1024;

/** Bytes as B, KB, MB or GB with one decimal (storage grows past the song sizes' MB), isolated left to right. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return formatQuantity(0, 'B');
  if (bytes >= GB) return formatQuantity(bytes / GB, 'GB', { fractionDigits: 1 });
  if (bytes >= MB) return formatQuantity(bytes / MB, 'MB', { fractionDigits: 1 });
  if (bytes >= KB) return formatQuantity(bytes / KB, 'KB', { fractionDigits: 1 });
  return formatQuantity(Math.round(bytes), 'B');
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday"… in the reader's language; null under a minute or when unreadable. */
export function timeAgo(value: string, language: Language, now: Date = new Date()): string | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of UNITS) if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  return null;
}

/** A number with the reader's digit grouping (1,234). */
export function formatCount(value: number, language: Language): string {
  return new Intl.NumberFormat(language).format(value);
}
