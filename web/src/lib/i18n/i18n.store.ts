import { useCallback, useSyncExternalStore } from 'react';
import type { Catalogue, MessageKey } from './catalogue';

export type Language = 'en' | 'he';
export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** The profile dialog's language choice, remembered on this device. */
export const LANGUAGE_STORAGE_KEY = 'language';

/** The app's catalogues (web/src/app/i18n.ts installs them): English at once, the others when read or chosen. */
export interface CatalogueSources {
  en: Catalogue;
  load: Record<Exclude<Language, 'en'>, () => Promise<Catalogue>>;
}

let sources: CatalogueSources | undefined;
/** The catalogues downloaded so far: English always; Hebrew once it is read or chosen. */
const catalogues: Partial<Record<Language, Catalogue>> = {};
const listeners = new Set<() => void>();

/** Called once, before anything is translated (the app's entry and the tests' setup import web/src/app/i18n.ts first). */
export function installCatalogues(given: CatalogueSources): void {
  sources = given;
  catalogues.en = given.en;
}

function installed(): CatalogueSources {
  if (!sources) throw new Error('No message catalogues: import web/src/app/i18n.ts before anything is translated');
  return sources;
}

/** A language's texts; English while its catalogue is on its way (the app waits for it at start). */
function catalogueOf(language: Language): Catalogue {
  return catalogues[language] ?? installed().en;
}

/**
 * Downloads a language's catalogue (Hebrew is a chunk of its own, issue 37 item 19); resolves
 * when `translate` can use it. The app awaits it before its first render.
 */
export async function loadLanguage(language: Language = current): Promise<void> {
  if (catalogues[language]) return;
  if (language !== 'en') catalogues[language] = await installed().load[language]();
}

function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'he';
}

function readStoredLanguage(): Language | null {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null; // storage blocked (privacy mode): fall back to the browser's language
  }
}

/** The stored choice wins; otherwise the browser's language decides (Hebrew or English). */
export function detectLanguage(): Language {
  const stored = readStoredLanguage();
  if (stored) return stored;
  const browser = globalThis.navigator?.language ?? '';
  return browser.toLowerCase().startsWith('he') ? 'he' : 'en';
}

let current: Language = detectLanguage();

export function textDirection(language: Language): 'ltr' | 'rtl' {
  return language === 'he' ? 'rtl' : 'ltr';
}

export function applyDocumentLanguage(language: Language = current): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = textDirection(language);
}

export function getLanguage(): Language {
  return current;
}

export function setLanguage(language: Language): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage blocked: the choice still applies to this visit
  }
  wanted = language;
  if (catalogues[language]) return switchTo(language);
  // The texts first, then the switch: the page never shows keys or half a language.
  void loadLanguage(language).then(
    () => {
      if (wanted === language) switchTo(language);
    },
    (error: unknown) => console.error('The catalogue of', language, 'could not be loaded', error),
  );
}

/** The language last asked for, so that a late catalogue does not undo a later choice. */
let wanted: Language | null = null;

function switchTo(language: Language): void {
  if (language === current) return;
  current = language;
  applyDocumentLanguage(language);
  for (const listener of listeners) listener();
}

export function subscribeLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function formatMessage(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** Translation outside React (stores, API helpers): uses the language in effect right now. */
export function translate(key: MessageKey, params?: MessageParams, language: Language = current): string {
  return formatMessage(catalogueOf(language)[key], params);
}

export function useLanguage(): Language {
  return useSyncExternalStore(subscribeLanguage, getLanguage, getLanguage);
}

/** The translate function of the current language; components re-render when it changes. */
export function useT(): Translate {
  const language = useLanguage();
  return useCallback<Translate>((key, params) => translate(key, params, language), [language]);
}

/** Messages that name a count: `<base>_one` and `<base>_other` in every catalogue. */
export type CountKey = { [K in MessageKey]: K extends `${infer Base}_other` ? (`${Base}_one` extends MessageKey ? Base : never) : never }[MessageKey];
export type TranslateCount = (base: CountKey, count: number) => string;

const pluralRules = new Map<Language, Intl.PluralRules>();

/**
 * The text of the count message `base` for `count` in `catalogue`: the form `language`'s plural
 * rules (Intl.PluralRules) pick (Hebrew's `_two` for 2 where the catalogue has one), `_other`
 * where the catalogue has no form of that category; `{count}` is written as the language
 * writes numbers.
 */
export function countMessage(catalogue: Catalogue, base: CountKey, count: number, language: Language): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  const forms: Partial<Record<string, string>> = catalogue;
  const template = forms[`${base}_${rules.select(count)}`] ?? forms[`${base}_other`] ?? '';
  return formatMessage(template, { count: count.toLocaleString(language) });
}

/** "1 line", "2 lines": `countMessage` in the language in effect (or `language`). */
export function translateCount(base: CountKey, count: number, language: Language = current): string {
  return countMessage(catalogueOf(language), base, count, language);
}

/** `translateCount` in the current language; components re-render when it changes. */
export function useTCount(): TranslateCount {
  const language = useLanguage();
  return useCallback<TranslateCount>((base, count) => translateCount(base, count, language), [language]);
}
