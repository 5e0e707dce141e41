import type { Translation } from '../../lib/i18n/translation.types';
import type { uploadEn } from './upload.messages.en';

/** The upload page, in Hebrew: every key of the English catalogue beside it. */
export const uploadHe: Translation<typeof uploadEn> = {
  // Upload page (/upload)
  uploadTitle: 'העלאת מוזיקה',
  uploadTagline: 'הוסיפו את השירים שלכם ל־Encore, והפכו את המוזיקה לוויזואליה בעזרת AI.',
  uploadChooseFiles: 'בחירת קובצי מוזיקה',
  uploadDropHere: 'גררו ושחררו כאן את קובצי המוזיקה',
  uploadDropNow: 'שחררו כדי להוסיף',
  uploadOrBrowse: 'או לחצו כדי לבחור קבצים',
  uploadLimits: 'עד \u2066{mb}MB\u2069 לקובץ · MP3, WAV, OGG, M4A או FLAC',
  uploadSelectedFiles: 'הקבצים שנבחרו',
  uploadRemoveFile: 'הסרת {name}',
  uploadProgressLabel: 'התקדמות ההעלאה של {name}',
  uploadFileDone: 'הועלה',
  uploadButton: 'העלאת קובץ מוזיקה',
  uploadingPercent: 'מעלה... {percent}',
  uploadComplete: 'ההעלאה הושלמה',
  uploadSuccessful: 'ההעלאה הצליחה',
  uploadSuccessfulCount: '{done} מתוך {total} קבצים הועלו',
  uploadFailed: 'ההעלאה נכשלה',
  noFileSelected: 'לא נבחר קובץ',
  uploadMissingUrl: 'תשובה לא תקינה: חסרה כתובת',
  uploadTooLarge: '{name} גדול מ־\u2066{mb}MB\u2069',
  uploadTooLargeShort: 'גדול מ־\u2066{mb}MB\u2069: לא נשלח',
  uploadOnlyMusic: 'נא להעלות קובצי מוזיקה בלבד',

  // Library: a file queued behind the one uploading; the way from empty Favorites to all songs
  uploadWaiting: 'ממתין',
};
