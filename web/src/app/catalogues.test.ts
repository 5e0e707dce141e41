import { ruleMessagesEn } from '@encore/common/messages.en';
import { describe, expect, it } from 'vitest';
import { en, englishCatalogues } from './catalogue.en';
import { he, hebrewCatalogues } from './catalogue.he';

type Texts = Readonly<Record<string, string | undefined>>;

const languages = { en: englishCatalogues, he: hebrewCatalogues } as const;
const merged: Record<keyof typeof languages, Texts> = { en, he };

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const pluralCategories = (language: string) => new Intl.PluralRules(language).resolvedOptions().pluralCategories;

/** `lyricsLineCount` for `lyricsLineCount_two` when `two` is a plural category of `language`. */
function countBase(key: string, language: string): string | null {
  const match = /^(\w+)_([a-z]+)$/.exec(key);
  return match && pluralCategories(language).includes(match[2] as Intl.LDMLPluralRule) ? match[1]! : null;
}

/** The count messages of the English catalogue: the keys `<base>_other`. */
const countBases = Object.keys(en)
  .filter((key) => key.endsWith('_other'))
  .map((key) => key.slice(0, -'_other'.length));

describe('message catalogues', () => {
  it('every *.messages.{en,he}.ts file is a catalogue of its language', () => {
    const files = import.meta.glob<Texts>('../../**/*.messages.{en,he}.ts', { eager: true, import: '*' });
    for (const [file, module] of Object.entries(files)) {
      const language = file.endsWith('.en.ts') ? 'en' : 'he';
      const listed: readonly object[] = Object.values(languages[language]);
      for (const catalogue of Object.values(module)) expect(listed, file).toContain(catalogue);
    }
    expect(Object.keys(files).length).toBe(Object.keys(englishCatalogues).length * 2);
  });

  it('no key is defined in two catalogues of a language', () => {
    for (const catalogues of Object.values(languages)) {
      const homes = new Map<string, string[]>();
      for (const [name, catalogue] of Object.entries(catalogues)) {
        for (const key of Object.keys(catalogue)) homes.set(key, [...(homes.get(key) ?? []), name]);
      }
      const twice = [...homes].filter(([, names]) => names.length > 1);
      expect(twice).toEqual([]);
    }
  });

  it('each Hebrew catalogue translates the English one beside it', () => {
    for (const [name, english] of Object.entries(englishCatalogues)) {
      const hebrew: Texts = hebrewCatalogues[name as keyof typeof hebrewCatalogues];
      const extra = Object.keys(hebrew).filter((key) => !(key in english));
      expect(
        extra.filter((key) => countBase(key, 'he') === null),
        name,
      ).toEqual([]);
      expect(
        Object.keys(english).filter((key) => !(key in hebrew)),
        name,
      ).toEqual([]);
    }
  });

  it('every key exists in every language, none empty, with the placeholders of the English text', () => {
    for (const [language, texts] of Object.entries(merged)) {
      for (const [key, text] of Object.entries(texts)) {
        const base = countBase(key, language);
        // A plural form may leave {count} out and name its count in words ("1 song", Hebrew's dual).
        const named = (message: string) => placeholders(message).filter((name) => !(base !== null && name === 'count'));
        const english = key in en ? en[key as keyof typeof en] : base !== null ? en[`${base}_other` as keyof typeof en] : undefined;
        expect(english, `${language} ${key} is not an English key`).toBeDefined();
        expect(text?.trim(), `${language} ${key}`).toBeTruthy();
        expect(named(text ?? ''), `${language} ${key}`).toEqual(named(english ?? ''));
      }
      expect(
        Object.keys(en).filter((key) => texts[key] === undefined),
        language,
      ).toEqual([]);
    }
  });

  it('every count message has a form for each plural category English has, in every language', () => {
    expect(countBases).toEqual(expect.arrayContaining(['musicSongCount', 'playlistSongCount', 'playingSongs', 'lyricsLineCount']));
    for (const [language, texts] of Object.entries(merged)) {
      for (const base of countBases) {
        // A category English lacks (Hebrew's `two`) falls back to `other` where a catalogue has no form of it.
        for (const category of pluralCategories('en')) {
          expect(texts[`${base}_${category}`], `${language} ${base}_${category}`).toBeTruthy();
        }
      }
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
