import type { Translation } from '../../lib/i18n/translation.types';
import type { musicFoldersEn } from './music-folders.messages.en';

/** The music folders' panel in Hebrew: every key of the English catalogue beside it. */
export const musicFoldersHe: Translation<typeof musicFoldersEn> = {
  musicFoldersLabel: 'תיקיות מוזיקה',
  musicFoldersSongs_one: 'תיקיות מוזיקה: שיר אחד',
  musicFoldersSongs_other: 'תיקיות מוזיקה: {count} שירים',
  musicFoldersLastScanned: 'נסרקו לאחרונה {when}',
  musicFoldersScannedJustNow: 'נסרקו לאחרונה ממש עכשיו',
  musicFoldersNeverScanned: 'טרם נסרקו',
  musicFoldersScanning: 'סורק את תיקיות המוזיקה…',
  musicFoldersScanProgress_one: 'סורק: {done} מתוך קובץ אחד',
  musicFoldersScanProgress_other: 'סורק: {done} מתוך {count} קבצים',
  musicFoldersProgressLabel: 'התקדמות הסריקה',
  musicFoldersScanNow: 'סרוק עכשיו',
  musicFoldersScanStarted: 'הסריקה התחילה',
  musicFoldersScanFailed: 'הפעלת הסריקה נכשלה',
  musicFoldersLoadFailed: 'טעינת תיקיות המוזיקה נכשלה',
  musicFoldersLastScanFailed: 'הסריקה האחרונה נכשלה: {error}',
  musicFoldersLastScanFailedNoReason: 'הסריקה האחרונה נכשלה.',
  musicFoldersUnavailable: 'לא זמינה: {path}',
  musicFoldersReportButton_one: 'דוח סריקה (1)',
  musicFoldersReportButton_other: 'דוח סריקה ({count})',
  musicFoldersReportTitle: 'דוח סריקה',
  musicFoldersReportDescription: 'קבצים שהסריקה לא הצליחה להשתמש בהם, והסיבה. תקנו אותם בתיקייה, והסריקה הבאה תקלוט אותם.',
  musicFoldersReportFirst: 'מוצגות {shown} הבעיות הראשונות מתוך {total}.',
  musicFoldersReportFolder: 'תיקייה',
  musicFoldersReportFile: 'קובץ',
  musicFoldersReportReason: 'סיבה',
  musicFoldersReportFolderItself: 'התיקייה עצמה',
};
