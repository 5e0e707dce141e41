import type { Translation } from '../../lib/i18n/translation.types';
import type { notFoundEn } from './not-found.messages.en';

/** The page-not-found page, in Hebrew: every key of the English catalogue beside it. */
export const notFoundHe: Translation<typeof notFoundEn> = {
  // Not found page
  notFoundTitle: 'הדף לא נמצא',
  notFoundCode: '404',
  notFoundBody: 'הדף שחיפשת לא קיים או שהועבר.',
};
