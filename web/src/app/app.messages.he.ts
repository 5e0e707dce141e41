import type { Translation } from '../lib/i18n/translation.types';
import type { appEn } from './app.messages.en';

/**
 * The app shell: top bar, Library menu, profile dialog, footer, error page, in Hebrew: every key
 * of the English catalogue beside it.
 */
export const appHe: Translation<typeof appEn> = {
  // Throughout the app
  brand: 'Encore',
  checkingSession: 'בודק את ההתחברות שלך…',
  toastRegionLabel: 'התראות',
  skipToContent: 'דלג לתוכן',

  // Top bar, Library dropdown, profile dialog
  homeLinkLabel: 'דף הבית של Encore',
  mainNavigation: 'ניווט ראשי',
  navHome: 'בית',
  navAiPlaylist: 'פלייליסט AI',
  navUpload: 'העלאה',
  navSong2Clip: 'Song2Clip',
  navLibrary: 'ספרייה',
  navGetStarted: 'מתחילים',
  openMenu: 'פתיחת תפריט',
  openProfile: 'פתיחת הפרופיל',
  libraryAllMusic: 'כל המוזיקה',
  libraryMyMusic: 'המוזיקה שלי',
  libraryFavorites: 'מועדפים',
  libraryPlaylists: 'פלייליסטים',
  libraryPlaylistsDescription: 'כל הפלייליסטים שלכם במקום אחד',

  // Profile page (/profile)
  profileTitle: 'פרופיל משתמש',
  profileSubtitle: 'ניהול הגדרות החשבון וההעדפות שלך',
  profileLoading: 'טוען פרופיל…',
  profileViewProfile: 'צפייה בפרופיל',
  profileMyMusic: 'המוזיקה שלי',
  profileUploadMusic: 'העלאת מוזיקה',
  logOut: 'התנתקות',

  // Footer
  footerBlurb: 'Encore הופכת תמונות לחוויות מוזיקליות ייחודיות. העלו את השירים שלכם, בנו פלייליסטים בעזרת AI והפכו כל שיר לקליפ ששווה לשתף.',
  footerFollow: 'עקבו אחרי Encore',
  footerSocialWebsite: 'אתר',
  footerSocialNews: 'עדכונים',
  footerSocialCommunity: 'צ׳אט הקהילה',
  footerSocialMail: 'ניוזלטר',
  footerSourceCode: 'קוד מקור',
  footerProduct: 'מוצר',
  footerFeatures: 'יכולות',
  footerPricing: 'תמחור',
  footerApi: 'API',
  footerIntegrations: 'אינטגרציות',
  footerUpdates: 'עדכונים',
  footerResources: 'משאבים',
  footerDocumentation: 'תיעוד',
  footerTutorials: 'מדריכים',
  footerBlog: 'בלוג',
  footerCommunity: 'קהילה',
  footerHelpCenter: 'מרכז עזרה',
  footerCompany: 'חברה',
  footerAbout: 'אודות',
  footerCareers: 'קריירה',
  footerPress: 'עיתונות',
  footerContact: 'צור קשר',
  footerPrivacyPolicy: 'מדיניות פרטיות',
  footerTerms: 'תנאים',
  footerPrivacy: 'פרטיות',
  footerCookies: 'עוגיות',
  footerCopyright: '© {year} Encore. כל הזכויות שמורות.',

  // Unexpected failure while showing a page
  errorTitle: 'משהו השתבש',
  errorBody: 'שגיאה לא צפויה עצרה את הדף. טענו מחדש כדי לנסות שוב.',
  reload: 'טעינה מחדש',
};
