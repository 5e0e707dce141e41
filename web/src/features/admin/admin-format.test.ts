import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, timeAgo } from './admin-format';

describe('admin formats', () => {
  it('gives bytes in the unit that fits, GB past a gigabyte', () => {
    expect(formatBytes(0)).toBe('\u20660 B\u2069');
    expect(formatBytes(1023)).toBe('\u20661023 B\u2069');
    expect(formatBytes(1536)).toBe('\u20661.5 KB\u2069');
    expect(formatBytes(5 * 1024 ** 2)).toBe('\u20665.0 MB\u2069');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('\u20663.3 GB\u2069');
    expect(formatBytes(-1)).toBe('\u20660 B\u2069');
    expect(formatBytes(Number.NaN)).toBe('\u20660 B\u2069');
  });

  it('says how long ago in the reader language, nothing under a minute or for a bad date', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(timeAgo('2026-03-10T11:59:30Z', 'en', now)).toBeNull();
    expect(timeAgo('2026-03-10T11:55:00Z', 'en', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-03-09T12:00:00Z', 'en', now)).toBe('yesterday');
    expect(timeAgo('2026-03-09T12:00:00Z', 'he', now)).toBe('אתמול');
    expect(timeAgo('not a date', 'en', now)).toBeNull();
  });

  it('groups digits', () => {
    expect(formatCount(48000, 'en')).toBe('48,000');
  });
});
