import type { Translation } from './translation.types';
import type { commonEn } from './common.messages.en';

/**
 * Texts that several parts of the app show: shared words, toasts, the rules the server checks too,
 * in Hebrew: every key of the English catalogue beside it.
 */
export const commonHe: Translation<typeof commonEn> = {
  // Rule messages shared with the server (common/messages.en.ts, ruleMessagesEn)
  usernameRequired: 'שם משתמש הוא שדה חובה',
  usernameTooLong: 'שם המשתמש יכול להכיל עד 50 תווים',
  passwordRequired: 'סיסמה היא שדה חובה',
  emailRequired: 'אימייל הוא שדה חובה',
  emailInvalid: 'כתובת אימייל לא תקינה',
  emailTooLong: 'כתובת האימייל יכולה להכיל עד 254 תווים',
  passwordTooShort: 'הסיסמה חייבת להכיל לפחות 8 תווים',
  passwordTooLong: 'הסיסמה יכולה להכיל עד 256 תווים',
  termsRequired: 'יש לאשר את התנאים וההגבלות',
  signupEmailRequired: 'נדרש אימייל כדי להירשם.',
  forgotBothRequired: 'נא להזין גם אימייל וגם שם משתמש',
  forgotEmailInvalid: 'נא להזין כתובת אימייל תקינה',
  resetPasswordRequired: 'נא להזין סיסמה חדשה',
  resetPasswordMismatch: 'הסיסמאות אינן תואמות',
  resetPasswordTooShort: 'הסיסמה חייבת להכיל לפחות 8 תווים',
  textControlCharacters: 'יש להסיר מהשדה את תווי הבקרה הבלתי נראים',

  // The per-user limits' answers (common/limit-messages.ts, limitMessagesEn), with the server's figures
  // (sizes such as "9.5 MB" isolated left-to-right, U+2066…U+2069, so they read as in English)
  limitStorageNoRoom:
    'אין מקום לשיר הזה: השירים שלך תופסים \u2066{used}\u2069 מתוך \u2066{quota}\u2069, והקובץ הזה בגודל \u2066{size}\u2069. יש למחוק כמה מהשירים שלך כדי לפנות מקום.',
  limitStorageFull: 'נפח האחסון שלך מלא: השירים שלך תופסים \u2066{used}\u2069 מתוך \u2066{quota}\u2069. יש למחוק כמה מהשירים שלך כדי לפנות מקום.',
  limitRenders: 'כבר יש לך את המספר המרבי של קליפים בעיבוד או בהמתנה בו־זמנית ({max}). נא להמתין שאחד מהם יסתיים ולנסות שוב.',
  limitTranscriptions: 'כבר יש לך את המספר המרבי של תמלולים בביצוע או בהמתנה בו־זמנית ({max}). נא להמתין שאחד מהם יסתיים ולנסות שוב.',
  limitUploads: 'יותר מדי העלאות בבת אחת. נא להמתין שאחת מהן תסתיים ולנסות שוב.',
  limitClipUploads: 'יותר מדי קליפים מועלים בבת אחת. נא להמתין שאחד מהם יסתיים ולנסות שוב.',
  limitAiPerMinute: 'יצרת את המספר המרבי של פלייליסטים בעזרת AI שמותר בדקה ({max}). נא לנסות שוב בעוד {seconds} שניות.',

  // Throughout the app
  documentTitle: '{page} · Encore',
  loading: 'טוען…',
  close: 'סגירה',

  // Top bar, Library dropdown, profile dialog
  libraryAllMusicDescription: 'גלו את כל אוסף המוזיקה',
  libraryMyMusicDescription: 'נהלו את השירים שהעליתם',
  libraryFavoritesDescription: 'גישה מהירה לשירים שאהבתם',

  // Profile page (/profile)
  languageLabel: 'שפה',
  languageEnglish: 'English',
  languageHebrew: 'עברית',

  // Auth screen
  placeholderEmail: 'you@example.com',

  // Forgot password view
  fieldEmailAddress: 'כתובת אימייל',
  sending: 'שולח...',

  // Shared words of the library pages
  tryAgain: 'נסו שוב',
  cancel: 'ביטול',
  clear: 'ניקוי',
  unknownArtist: 'אמן לא ידוע',
  nowPlaying: 'מתנגן עכשיו',
  backToMusic: 'חזרה למוזיקה',

  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchImageFailed: 'טעינת התמונה נכשלה',
  fetchMusicFilesFailed: 'טעינת קובצי המוזיקה נכשלה',
  fetchMusicFileFailed: 'טעינת קובץ המוזיקה נכשלה',

  // Music collection (/music)
  musicSearchLabel: 'חיפוש שירים',
  musicSearchPlaceholder: 'שם, אמן או אלבום',
  clearSearch: 'ניקוי החיפוש',
  playSong: 'ניגון {title}',
  stopSong: 'עצירת {title}',

  // Player bar
  playerPlay: 'ניגון',
  playerPause: 'השהיה',
  playerClose: 'סגירת הנגן',
  playerSeekValue: '{elapsed} מתוך {total}',

  // Song page (/music/{id})
  songLoading: 'טוען שיר...',
  songErrorTitle: 'שגיאה בטעינת השיר',
  songNotFoundTitle: 'השיר לא נמצא',
  songNotFoundBody: 'השיר שחיפשת לא נמצא.',
  songSeek: 'מיקום בשיר',

  // Playlists (/playlists, /playlists/{id}, /create-playlist, and Add to Playlist on song pages)
  playlistSongCount_one: 'שיר אחד',
  playlistSongCount_other: '{count} שירים',
  playlistLoadFailed: 'טעינת הפלייליסט נכשלה',
  backToPlaylists: 'חזרה לפלייליסטים',
  playAll: 'ניגון הכול',
  playingSongs_one: 'מנגן שיר אחד',
  playingSongs_other: 'מנגן {count} שירים',
  viewPlaylist: 'לצפייה בפלייליסט',

  // AI playlists (/ai-playlist), the AI badge on playlists, the song page's analysis and More like this
  aiGeneratedBadge: 'נוצר ב-AI',

  // Not found page
  backToHome: 'חזרה לדף הבית',
};
