import { describe, expect, it } from 'vitest';
import { folderIdField, idField, multilineText, text } from './input.contract.js';
import { hasControlCharacters } from './input.rules.js';

describe('idField', () => {
  const id = idField('The song id');
  it('takes ids as numbers or as the digit strings of paths and query strings', () => {
    expect(id.parse(1)).toBe(1);
    expect(id.parse('42')).toBe(42);
    expect(id.parse('2147483647')).toBe(2147483647);
  });
  it('refuses what PostgreSQL integer ids cannot be, and anything that is not plainly a number', () => {
    for (const bad of ['2147483648', '99999999999', '-1', '0', '1.5', 'abc', '1e3', '', ' 7', '0x10', 2147483648, 0, -1, 1.5, null, true]) {
      const result = id.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('The song id must be a whole number from 1 to 2147483647');
    }
  });
  it('lets folder ids be 0, the SPEC default', () => {
    expect(folderIdField.parse(0)).toBe(0);
    expect(folderIdField.safeParse(-1).success).toBe(false);
  });
});

describe('text rules', () => {
  it('refuses NUL and other control characters in single-line text, naming the field', () => {
    for (const bad of ['a\u0000b', '\u0007', 'tab\there', 'line\nbreak', '\u001b[31m', '\u007f', '\u0085']) {
      expect(hasControlCharacters(bad), JSON.stringify(bad)).toBe(true);
      expect(text('Username').safeParse(bad).error?.issues[0]?.message).toBe('Username must not contain control characters');
    }
    expect(text('Username').parse('Zoë 🎵 O’Brien')).toBe('Zoë 🎵 O’Brien');
  });
  it('lets multi-line text keep tabs and line breaks, and nothing else', () => {
    expect(multilineText('The description').parse('one\r\n\ttwo')).toBe('one\r\n\ttwo');
    expect(hasControlCharacters('one\ntwo', { multiline: true })).toBe(false);
    expect(multilineText('The description').safeParse('one\u0000two').success).toBe(false);
  });
  it('says a missing field is required and a field of another type must be text', () => {
    expect(text('Username', 'Username is required').safeParse(undefined).error?.issues[0]?.message).toBe('Username is required');
    expect(text('Username').safeParse(['a']).error?.issues[0]?.message).toBe('Username must be text');
  });
});
