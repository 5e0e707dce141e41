import { useCallback, useSyncExternalStore } from 'react';
import { en, type Catalogue, type MessageKey } from './en.catalogue';
import { he } from './he.catalogue';

export type Language = 'en' | 'he';
export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** The profile dialog's language choice, remembered on this device. */
export const LANGUAGE_STORAGE_KEY = 'language';

const catalogues: Record<Language, Catalogue> = { en, he };
const listeners = new Set<() => void>();

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
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

/** Translation outside React (stores, API helpers): uses the language in effect right now. */
export function translate(key: MessageKey, params?: MessageParams, language: Language = current): string {
  return formatMessage(catalogues[language][key], params);
}

export function useLanguage(): Language {
  return useSyncExternalStore(subscribeLanguage, getLanguage, getLanguage);
}

/** The translate function of the current language; components re-render when it changes. */
export function useT(): Translate {
  const language = useLanguage();
  return useCallback<Translate>((key, params) => translate(key, params, language), [language]);
}
