import type { Language } from './i18n/i18n.store';

const LOCALES: Record<Language, string> = { en: 'en-US', he: 'he-IL' };

/**
 * A date as short month and day, e.g. "Mar 5" (SPEC 9), in the reader's language, with the year
 * when it is not this year ("Mar 5, 2024"), so an old upload does not pass for a recent one;
 * '' when unreadable.
 */
export function formatShortDate(value: string | Date, language: Language, now: Date = new Date()): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const year = date.getFullYear() === now.getFullYear() ? undefined : 'numeric';
  return new Intl.DateTimeFormat(LOCALES[language], { month: 'short', day: 'numeric', ...(year ? { year } : {}) }).format(date);
}

/** A full date, e.g. "Mar 5, 2026", for when the year matters (a share link's expiry). */
export function formatLongDate(value: string | Date, language: Language): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'medium' }).format(date);
}
