import type { Translation } from './translation.types';

/**
 * The app's message catalogues by name. Empty here: the app declares them where it assembles its
 * features' catalogues (web/src/app/catalogue.en.ts), by declaration merging, so that this floor
 * imports no feature and MessageKey is still every key of every catalogue.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface AppCatalogues {}

export type KeysOf<Catalogues> = { [Name in keyof Catalogues]: keyof Catalogues[Name] }[keyof Catalogues];

/** Keys that more than one of `Catalogues` defines (`never` when each key has one home). */
type DuplicateKeys<Catalogues> = {
  [Name in keyof Catalogues]: keyof Catalogues[Name] & KeysOf<Omit<Catalogues, Name>>;
}[keyof Catalogues];

export type MessageKey = Extract<KeysOf<AppCatalogues>, string>;
/** A language's texts: every key, and the plural forms of its own (see `Translation`). */
export type Catalogue = Translation<Record<MessageKey, string>>;

/**
 * One catalogue of all of `catalogues`. A key that two of them define is a type error here (the
 * call then asks for an argument naming the keys), as a later catalogue would hide the text.
 */
export function merge<Catalogues extends Record<string, object>>(
  catalogues: Catalogues,
  ..._definedTwice: [DuplicateKeys<Catalogues>] extends [never] ? [] : [duplicates: DuplicateKeys<Catalogues>]
): { [Key in KeysOf<Catalogues>]: string } {
  return Object.assign({}, ...Object.values(catalogues));
}
