/**
 * The two rules every value that enters Encore follows, whatever the field: ids fit the
 * database's `integer`, and text holds no control characters (NUL breaks PostgreSQL's text
 * type; the others are never typed by a person and only hide things) and no lone surrogates. The contract's schema
 * builders (input.contract.ts) apply them to every field; the web app's forms can run them too.
 */

/** The largest value of PostgreSQL's `integer` (and of a `serial` id). */
export const ID_MAX = 2_147_483_647;

/** C0 controls, DEL and C1 controls: nothing a single-line field may hold. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const SINGLE_LINE_PATTERN = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same, but tab, line feed and carriage return are allowed (a description, lyrics). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const MULTILINE_PATTERN = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? MULTILINE_PATTERN : SINGLE_LINE_PATTERN).test(value);
}

/**
 * Half of a UTF-16 surrogate pair with no other half (JSON can spell one, "\ud800"): no
 * character at all. UTF-8 cannot encode it, so PostgreSQL's text and jsonb refuse it.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export function hasLoneSurrogates(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/**
 * An id as routes receive it: a number from a JSON body, or a string of decimal digits from a
 * path or query string (no sign, no fraction, no exponent, no spaces). Anything else, and any
 * number outside `min..ID_MAX`, is not an id: the answer is undefined.
 */
export function parseId(value: unknown, min = 1): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= min && number <= ID_MAX ? number : undefined;
}
