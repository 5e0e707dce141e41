import type { Translation } from '../lib/i18n/translation.types';
import type { playerEn } from './player.messages.en';

/** The player bar, in Hebrew: every key of the English catalogue beside it. */
export const playerHe: Translation<typeof playerEn> = {
  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchSongUrlFailed: 'טעינת כתובת השיר נכשלה',
  fetchSongFailed: 'טעינת השיר נכשלה',
  fetchLoudnessFailed: 'טעינת עוצמת השיר נכשלה',
  countPlayFailed: 'ספירת ההשמעה נכשלה',
  loadQueueFailed: 'טעינת תור ההשמעה נכשלה',
  saveQueueFailed: 'שמירת תור ההשמעה נכשלה',
  loadHistoryFailed: 'טעינת היסטוריית ההאזנה נכשלה',

  // Player bar
  playerRegion: 'נגן',
  playerNext: 'הבא',
  playerPrevious: 'הקודם',
  playerSeek: 'מיקום בשיר',
  playerVolume: 'עוצמת קול',
  playerMute: 'השתקה',
  playerUnmute: 'ביטול השתקה',

  // Queue (issue 30)
  playerQueue: 'תור',
  queueTitle: 'תור ההשמעה',
  queueDescription: 'מה יתנגן בהמשך. גררו שיר, או השתמשו בכפתורי החצים שלו, כדי לשנות את הסדר.',
  queueEmpty: 'אין שירים בתור.',
  queueUpNext: 'הבאים בתור',
  queuePlayed: 'הושמעו',
  queuePlaySong: 'נגן את {title}',
  queueMoveUp: 'הזז את {title} למעלה',
  queueMoveDown: 'הזז את {title} למטה',
  queueDrag: 'שנה את מקומו של {title}',
  queueRemove: 'הסר את {title} מהתור',
  queueClear: 'נקה את התור',
  queueMovedTo: '{title} הועבר למקום {position} מתוך {total}',
  queueRemoved: '{title} הוסר מהתור',
  playerShuffle: 'ערבוב',
  playerRepeatOff: 'חזרה: כבויה',
  playerRepeatAll: 'חזרה: הכול',
  playerRepeatOne: 'חזרה: השיר הזה',
  songPlayNext: 'נגן הבא',
  songAddToQueue: 'הוסף לתור',
  songQueueMenu: 'אפשרויות תור עבור {title}',
  queueAddedNext: 'יתנגן הבא: {title}',
  queueAddedLast: 'נוסף לתור: {title}',

  // Player settings (issue 30)
  playerSettings: 'הגדרות הנגן',
  playerMore: 'עוד',
  settingsNormalisation: 'השוואת עוצמה',
  settingsNormalisationOff: 'כבויה',
  settingsNormalisationTrack: 'שיר',
  settingsNormalisationAlbum: 'אלבום',
  settingsNormalisationHelp: 'שיר: כל שיר מתנגן באותה עוצמה; אלבום: נשמרים ההבדלים בין שירי אותו אלבום. שום שיר לא מוגבר עד כדי עיוות.',
  settingsTarget: 'עוצמת יעד',
  settingsPreamp: 'הגברה מוקדמת',
  settingsCrossfade: 'מעבר הדרגתי',
  settingsCrossfadeValue: '{value} ש׳',
  settingsCrossfadeOff: 'כבוי (ללא הפסקות)',
  settingsGainNow: 'השיר הזה: {value}',

  // History on the music page (issue 30)
  recentlyPlayed: 'הושמעו לאחרונה',
  mostPlayed: 'הכי מושמעים',
  playCountLabel: 'הושמע {count} פעמים',

  // Playlists saved for offline listening (issue 30)
  offlineSave: 'שמור להאזנה ללא חיבור',
  offlineSaving: 'שומר {done} מתוך {total}…',
  offlineSaved: 'נשמר להאזנה ללא חיבור · {size}',
  offlineRemove: 'הסר את העותק השמור',
  offlineSavedToast: 'נשמר להאזנה ללא חיבור',
  offlineRemovedToast: 'העותק השמור הוסר',
  offlineSaveFailed: 'השמירה להאזנה ללא חיבור נכשלה',
  offlineUnavailable: 'הדפדפן הזה אינו יכול לשמור שירים להאזנה ללא חיבור.',

  bookmarkResumed: 'ממשיך מ־\u2066{time}\u2069, איפה שעצרת',
  bookmarkStartOver: 'מההתחלה',
  bookmarkFailed: 'לא ניתן היה לשמור את המקום בשיר',
};
