/**
 * Plural categories a language may have beyond English's `one` and `other` (Intl.PluralRules):
 * Hebrew's dual is `two`.
 */
type ExtraPluralCategory = 'zero' | 'two' | 'few' | 'many';

/** `lyricsLineCount` for `lyricsLineCount_one` and `lyricsLineCount_other`. */
export type CountBase<Key> = Key extends `${infer Base}_other` ? Base : never;

/**
 * A catalogue's translation: every key of the English catalogue `English`, plus the plural forms
 * the language has and English has not (`<base>_two` in Hebrew) for its count messages.
 */
export type Translation<English> = { readonly [Key in keyof English]: string } & {
  readonly [Key in `${CountBase<keyof English>}_${ExtraPluralCategory}`]?: string;
};
