import { ruleMessagesEn } from '@encore/common/messages.en';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './en.catalogue';
import { he } from './he.catalogue';
import { detectLanguage, formatMessage, getLanguage, setLanguage, translate } from './i18n.store';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

afterEach(() => {
  setLanguage('en');
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('catalogues', () => {
  it('Hebrew has every English key, none empty, with the same placeholders', () => {
    expect(Object.keys(he).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const hebrew = he[key as keyof typeof en];
      expect(hebrew.trim(), key).not.toBe('');
      expect(placeholders(hebrew), key).toEqual(placeholders(text));
    }
  });

  it('English reuses the shared rule messages verbatim', () => {
    for (const [key, text] of Object.entries(ruleMessagesEn)) expect(en[key as keyof typeof en]).toBe(text);
  });

  it('holds the spec texts in both languages', () => {
    expect(en.wrongCredentials).toBe('Wrong username or password!');
    expect(he.wrongCredentials).toBe('שם משתמש או סיסמה שגויים!');
    expect(en.loginError).toBe('An error occurred while signing in!');
    expect(he.loginError).toBe('אירעה שגיאה בעת התחברות!');
    expect(en.comingSoon).toBe('Advanced settings will be available soon');
  });
});

describe('language', () => {
  it('follows the browser unless a choice is stored', () => {
    vi.stubGlobal('navigator', { language: 'he-IL' });
    expect(detectLanguage()).toBe('he');
    vi.stubGlobal('navigator', { language: 'fr-FR' });
    expect(detectLanguage()).toBe('en');
    localStorage.setItem('language', 'he');
    expect(detectLanguage()).toBe('he');
  });

  it('switching to Hebrew renders right-to-left and is remembered', () => {
    setLanguage('he');
    expect(getLanguage()).toBe('he');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('he');
    expect(localStorage.getItem('language')).toBe('he');
    expect(translate('logOut')).toBe('התנתקות');
    setLanguage('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('fills placeholders', () => {
    expect(formatMessage('© {year} Encore', { year: 2030 })).toBe('© 2030 Encore');
    expect(translate('footerCopyright', { year: 2030 })).toBe('© 2030 Encore. All rights reserved.');
  });
});
