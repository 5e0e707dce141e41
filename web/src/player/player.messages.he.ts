import type { Translation } from '../lib/i18n/translation.types';
import type { playerEn } from './player.messages.en';

/** The player bar, in Hebrew: every key of the English catalogue beside it. */
export const playerHe: Translation<typeof playerEn> = {
  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchSongUrlFailed: 'טעינת כתובת השיר נכשלה',

  // Player bar
  playerRegion: 'נגן',
  playerNext: 'הבא',
  playerPrevious: 'הקודם',
  playerSeek: 'מיקום בשיר',
  playerVolume: 'עוצמת קול',
  playerMute: 'השתקה',
  playerUnmute: 'ביטול השתקה',
};
