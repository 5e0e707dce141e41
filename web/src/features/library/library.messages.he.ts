import type { Translation } from '../../lib/i18n/translation.types';
import type { libraryEn } from './library.messages.en';

/**
 * The music collection and the song page, in Hebrew: every key of the English catalogue beside it.
 */
export const libraryHe: Translation<typeof libraryEn> = {
  // Shared words of the library pages
  uploadMusic: 'העלאת מוזיקה',

  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  toggleLikeFailed: 'עדכון הסימון "אהבתי" נכשל',

  // Music collection (/music)
  musicTitleAll: 'אוסף המוזיקה',
  musicTitleMine: 'המוזיקה שלי',
  musicTitleFavorites: 'המועדפים שלי',
  musicSongCount_one: 'שיר אחד',
  musicSongCount_other: '{count} שירים',
  musicViewLabel: 'תצוגה',
  musicViewGrid: 'תצוגת רשת',
  musicViewCompact: 'תצוגה צפופה',
  musicSortLabel: 'מיון לפי',
  musicSortRecent: 'נוספו לאחרונה',
  musicSortTitle: 'שם השיר',
  musicSortArtist: 'אמן',
  musicSortAlbum: 'אלבום',
  musicLoading: 'טוען את אוסף המוזיקה שלך...',
  musicErrorTitle: 'שגיאה בטעינת המוזיקה',
  musicColumnTitle: 'שם',
  musicColumnAlbum: 'אלבום',
  musicColumnDuration: 'משך',
  musicColumnSize: 'גודל',
  musicColumnAdded: 'נוסף',
  musicEmptyTitle: 'אוסף המוזיקה שלך ריק',
  musicEmptyAll: 'עוד אף אחד לא העלה שיר. היו הראשונים: ההעלאה שלכם פותחת את האוסף.',
  musicEmptyMine: 'עדיין לא העליתם שירים. הוסיפו את הראשון והוא יופיע כאן.',
  musicEmptyFavoritesTitle: 'עדיין אין מועדפים',
  musicEmptyFavorites: 'שירים שאהבתם יופיעו כאן. לחצו על הלב שליד שיר כדי להוסיף אותו.',
  musicNoResultsTitle: 'לא נמצאו תוצאות',
  musicNoResultsBody: 'אין שיר, אמן או אלבום שמתאימים ל"{query}".',
  paginationLabel: 'עמודים',
  paginationPrevious: 'הקודם',
  paginationNext: 'הבא',
  paginationPreviousPage: 'העמוד הקודם',
  paginationNextPage: 'העמוד הבא',
  paginationPage: 'עמוד {page}',
  pauseSong: 'השהיית {title}',
  playHint: 'ניגון',
  pauseHint: 'השהיה',
  likeSong: 'אהבתי את {title}',
  likeHint: 'אהבתי',
  unlikeHint: 'ביטול אהבתי',

  // Song page (/music/{id})
  songPageTitle: 'שיר',
  songEyebrow: 'שיר',
  backToAllMusic: 'חזרה לכל המוזיקה',
  songPlay: 'ניגון',
  songPause: 'השהיה',
  shareButton: 'שיתוף',
  downloadButton: 'הורדה',
  downloadStarted: 'ההורדה התחילה',
  downloadFailed: 'ההורדה נכשלה',
  songNotAvailableForDownload: 'השיר אינו זמין להורדה.',
  deleteSongButton: 'מחיקה',
  deleteSongTitle: 'למחוק את השיר?',
  deleteSongBody: '"{title}" יוסר מהספרייה, מהמועדפים ומרשימות ההשמעה של כולם. אי אפשר לבטל את הפעולה.',
  deleteSongConfirm: 'מחיקת השיר',
  deleteSongDone: '"{title}" נמחק',
  deleteSongFailed: 'מחיקת השיר נכשלה',
  songTagsTitle: 'פרטים',
  infoTitle: 'פרטי הקובץ',
  infoType: 'סוג',
  infoUploaded: 'הועלה',
  infoAdded: 'נוסף',
  infoSize: 'גודל',
  infoDuration: 'משך',
  infoBitrate: 'קצב סיביות',
  infoSampleRate: 'קצב דגימה',
  infoArtist: 'אמן',
  infoAlbum: 'אלבום',
  infoGenre: "ז'אנר",
  infoYear: 'שנה',

  // Library: a file queued behind the one uploading; the way from empty Favorites to all songs
  browseAllMusic: 'לכל המוזיקה',
};
