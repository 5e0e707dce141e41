import { afterEach, describe, expect, it, vi } from 'vitest';
import { he } from '../../app/catalogue.he';
import { countMessage, detectLanguage, formatMessage, getLanguage, setLanguage, translate, translateCount } from './i18n.store';

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

describe('count messages', () => {
  it('pick the form of the language plural rules', () => {
    expect(translateCount('musicSongCount', 1)).toBe('1 song');
    expect(translateCount('musicSongCount', 2)).toBe('2 songs');
    expect(translateCount('musicSongCount', 1234)).toBe('1,234 songs');
    expect(translateCount('playlistSongCount', 0)).toBe('0 songs');
    expect(translateCount('playlistSongCount', 1)).toBe('1 song');
    expect(translateCount('playingSongs', 1)).toBe('Playing 1 song');
    expect(translateCount('playingSongs', 3)).toBe('Playing 3 songs');
    expect(translateCount('musicSongCount', 1, 'he')).toBe('שיר אחד');
    expect(translateCount('playlistSongCount', 5, 'he')).toBe('5 שירים');
    expect(translateCount('playingSongs', 1, 'he')).toBe('מנגן שיר אחד');
    expect(translateCount('playingSongs', 11, 'he')).toBe('מנגן 11 שירים');
  });

  it("use Hebrew's dual where a catalogue has it, and the plural where it has not", () => {
    expect(translateCount('lyricsLineCount', 2, 'he')).toBe('2 שורות');
    const withDual = { ...he, lyricsLineCount_two: 'שתי שורות' };
    expect(countMessage(withDual, 'lyricsLineCount', 2, 'he')).toBe('שתי שורות');
    expect(countMessage(withDual, 'lyricsLineCount', 1, 'he')).toBe('שורה אחת');
    expect(countMessage(withDual, 'lyricsLineCount', 3, 'he')).toBe('3 שורות');
  });
});
