import type { Translation } from '../../lib/i18n/translation.types';
import type { landingEn } from './landing.messages.en';

/** The landing page, in Hebrew: every key of the English catalogue beside it. */
export const landingHe: Translation<typeof landingEn> = {
  // Landing page
  landingTitle: 'המוזיקה שלך, ברמה אחרת',
  landingBadge: 'ניהול מוזיקה מהדור הבא',
  landingHeadlineLead: 'המוזיקה שלך,',
  landingHeadlineAccent: 'ברמה אחרת',
  landingTagline: 'נהלו, צרו ותיהנו מהמוזיקה שלכם כמו שלא עשיתם מעולם, עם כלים מבוססי AI לפלייליסטים, מילים וקליפים.',
  landingGetStarted: 'מתחילים',
  landingFeaturesHeading: 'כל מה שהמוזיקה שלך צריכה',
  landingProgressLabel: 'כלי מומלץ {index} מתוך {count}',
  featureUploadTitle: 'העלאת שירים',
  featureUploadDescription: 'העלו וארגנו את אוסף המוזיקה שלכם במקום אחד.',
  featureAiPlaylistTitle: 'יוצר פלייליסטים AI',
  // U+2068/U+2069 isolate the English example so its quotes stay put in right-to-left text.
  featureAiPlaylistDescription: "כתבו בקשה כמו \u2068'chill coding beats'\u2069 וקבלו פלייליסט שאפשר לערוך ולשמור.",
  featureLyricsTitle: 'תמלול מילים',
  featureLyricsDescription: 'תמלול אוטומטי של השירים שלכם, מוכן לקריוקי.',
  featureSong2ClipTitle: 'Song2Clip',
  featureSong2ClipDescription: 'הפכו שיר לקליפ עם תמונות, מילים מסונכרנות ואפקטים.',
};
