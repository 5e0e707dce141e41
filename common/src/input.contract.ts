import { z } from 'zod';
import { ID_MAX, MULTILINE_PATTERN, SINGLE_LINE_PATTERN, hasLoneSurrogates, parseId } from './input.rules.js';

/**
 * The schema builders every contract field is made of, so no field can skip the input rules
 * of input.rules.ts: ids bounded to the database's `integer`, text without control characters
 * or lone surrogates.
 * `label` names the field in the message a client gets back ("The playlist id", "Username").
 */

function idSchema(label: string, min: number) {
  const message = `${label} must be a whole number from ${min} to ${ID_MAX}`;
  // Paths and query strings carry ids as strings: only plain decimal digits become a number,
  // so "1e3", "0x10", " 7" or "" are refused instead of coerced. The number schema after it
  // gives the message and the OpenAPI document's integer range.
  return z.preprocess(
    (value: number | string) => parseId(value, min) ?? value,
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(ID_MAX, { error: message }),
  );
}

/** A row id: 1..2147483647, from a number or a string of digits. */
export const idField = (label: string) => idSchema(label, 1);

/** SPEC 3: a song's folderId defaults to 0 (no folder); otherwise it is an id. */
export const folderIdField = idSchema('The folder id', 0);

function textSchema(label: string, requiredMessage: string, pattern: RegExp) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? requiredMessage : `${label} must be text`) })
    .regex(pattern, { error: `${label} must not contain control characters` })
    .refine((value) => !hasLoneSurrogates(value), { error: `${label} must not contain broken characters (a lone UTF-16 surrogate)` });
}

/** A single-line text field (names, e-mail addresses, passwords, tokens, keys, search). */
export const text = (label: string, requiredMessage = `${label} is required`) => textSchema(label, requiredMessage, SINGLE_LINE_PATTERN);

/** A text field that may span lines: tab, line feed and carriage return are allowed. */
export const multilineText = (label: string, requiredMessage = `${label} is required`) => textSchema(label, requiredMessage, MULTILINE_PATTERN);
