import type { Translation } from '../../lib/i18n/translation.types';
import type { sharingEn } from './sharing.messages.en';

/**
 * Sharing a song by e-mail and the public share page, in Hebrew: every key of the English
 * catalogue beside it.
 */
export const sharingHe: Translation<typeof sharingEn> = {
  // Share by e-mail, and the public share page
  shareTitle: 'שיתוף באימייל',
  shareDescription: 'נשלח באימייל קישור שמנגן את "{title}", בלי צורך בחשבון. הקישור בתוקף ל־30 יום.',
  shareSend: 'שליחה',
  shareEmailRequired: 'נא להזין כתובת אימייל.',
  shareEmailInvalid: 'נא להזין כתובת אימייל תקינה.',
  shareSongUrlMissing: 'לא הצלחנו לקבל את כתובת השיר. נסו שוב.',
  sendEmailFailed: 'שליחת האימייל נכשלה.',
  emailSentSuccess: 'האימייל נשלח בהצלחה!',
  shareTitlePage: 'שיר משותף',
  shareLoading: 'טוען את השיר המשותף…',
  shareInvalidTitle: 'הקישור אינו זמין',
  shareInvalid: 'קישור השיתוף אינו תקין או שפג תוקפו.',
  sharePlayerLabel: 'ניגון {title}',
  sharedBy: 'שותף על ידי {name}',
  shareExpires: 'הקישור בתוקף עד {date}',
  shareDiscover: 'הכירו את Encore',
};
