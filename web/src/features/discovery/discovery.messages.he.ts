import type { Translation } from '../../lib/i18n/translation.types';
import type { discoveryEn } from './discovery.messages.en';

/**
 * AI playlists, song analysis and More like this, in Hebrew: every key of the English catalogue
 * beside it.
 */
export const discoveryHe: Translation<typeof discoveryEn> = {
  // AI playlists (/ai-playlist), the AI badge on playlists, the song page's analysis and More like this
  aiPlaylistTitle: 'יוצר פלייליסטים ב-AI',
  aiPlaylistSubtitle: 'תארו את המוזיקה שאתם רוצים, או בחרו מצב רוח. Encore בוחר את השירים מהספרייה שלכם.',
  aiPromptLabel: 'הבקשה שלכם',
  aiPromptPlaceholder: 'למשל: ביטים רגועים לתכנות',
  aiPromptRequired: 'נא להזין בקשה כדי ליצור פלייליסט',
  aiExamplesHeading: 'נסו דוגמה',
  aiExample1: 'ביטים רגועים לתכנות',
  aiExample2: 'משהו רגוע להירדם איתו',
  aiExample3: 'שירים קצביים לריצת בוקר',
  aiExample4: 'שירים מלנכוליים בלי ווקאל',
  aiExample5: 'שעה של מוזיקת מסיבות משנות ה-80',
  aiMoodsHeading: 'מצבי רוח',
  moodEnergetic: 'אנרגטי',
  moodRelaxing: 'מרגיע',
  moodNostalgic: 'נוסטלגי',
  moodRomantic: 'רומנטי',
  moodMelancholic: 'מלנכולי',
  moodUplifting: 'מרומם',
  moodFocused: 'מרוכז',
  moodDreamy: 'חלומי',
  moodIntense: 'עוצמתי',
  moodPeaceful: 'שליו',
  aiGenerate: 'יצירת פלייליסט',
  aiGenerating: 'יוצר...',
  aiProgressLabel: 'הפלייליסט שלכם נוצר',
  aiGenerated: 'הפלייליסט נוצר בהצלחה!',
  aiGenerateFailed: 'יצירת הפלייליסט נכשלה. נסו שוב.',
  aiCreateAnother: 'יצירת פלייליסט נוסף',
  aiResultSongsHeading: 'שירים',
  aiAnalysedOf: 'נותחו {done} מתוך {total} שירים',
  aiAnalysisIncompleteHint: 'שירים שעדיין ממתינים לניתוח יצטרפו לתשובות כשהניתוח יסתיים.',
  aiAnalysisFailedCount: '{count} לא ניתנים לניתוח',
  aiNoAnswerTitle: 'הפעם לא נוצר פלייליסט',
  songAnalysisLabel: 'צליל',
  songAnalysisPending: 'ממתין לניתוח צלילי',
  songAnalysisFailed: 'הניתוח הצלילי לא הצליח לקרוא את השיר',
  songAnalysisMajor: '{key} מז׳ור',
  songAnalysisMinor: '{key} מינור',
  songAnalysisEnergyLow: 'אנרגיה נמוכה',
  songAnalysisEnergyMedium: 'אנרגיה בינונית',
  songAnalysisEnergyHigh: 'אנרגיה גבוהה',
  moreLikeThis: 'עוד כמו זה',
  moreLikeThisFailed: 'יצירת הפלייליסט נכשלה. נסו שוב.',
};
