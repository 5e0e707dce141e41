import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, formatMessage, getLanguage, setLanguage, translate } from './i18n.store';

afterEach(() => {
  setLanguage('en');
  localStorage.clear();
  vi.unstubAllGlobals();
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
