import type { Translation } from '../../lib/i18n/translation.types';
import type { listeningEn } from './listening.messages.en';

/** The profile page's ListenBrainz section in Hebrew: every key of the English catalogue beside it. */
export const listeningHe: Translation<typeof listeningEn> = {
  listenBrainzHeading: 'ListenBrainz',
  listenBrainzBody: 'שליחת מה שמתנגן ב-Encore לפרופיל שלך ב-ListenBrainz. שיר נספר אחרי שהתנגן חצי מאורכו או 4 דקות.',
  listenBrainzTokenLabel: 'אסימון משתמש',
  listenBrainzTokenHint: 'יש להעתיק אותו מ-{link} ב-ListenBrainz.',
  listenBrainzTokenHintLink: 'Settings ← User token',
  listenBrainzConnect: 'חיבור',
  listenBrainzConnected: 'ListenBrainz חובר',
  listenBrainzConnectedAs: 'מחובר בתור {userName}',
  listenBrainzLastSent: 'ההאזנה האחרונה נשלחה ב-{date}',
  listenBrainzNothingSent: 'עדיין לא נשלחה האזנה',
  listenBrainzLastError: 'לא ניתן היה לשלוח את ההאזנה האחרונה: {error}',
  listenBrainzDisconnect: 'ניתוק',
  listenBrainzDisconnected: 'ListenBrainz נותק',
  listenBrainzTokenRequired: 'יש להזין את אסימון המשתמש של ListenBrainz',
  listenBrainzTokenRefused: 'ListenBrainz לא קיבל את האסימון הזה',
  listenBrainzUnavailable: 'לא ניתן להגיע ל-ListenBrainz; כדאי לנסות שוב מאוחר יותר',
  listenBrainzLoadFailed: 'טעינת החיבור ל-ListenBrainz נכשלה',
  listenBrainzConnectFailed: 'חיבור ListenBrainz נכשל',
  listenBrainzDisconnectFailed: 'ניתוק ListenBrainz נכשל',
};
