import type { Language } from '../../lib/i18n/i18n.store';

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * How long ago `value` was, in the reader's language: "5 minutes ago", "yesterday", "3 weeks
 * ago"...; null under a minute (the caller says "just now" its own way) or when unreadable.
 */
export function formatTimeAgo(value: string | Date, language: Language, now: Date = new Date()): string | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  // A clock a little ahead of ours is still "now", not "in 3 seconds".
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return null;
}
