import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, timeAgo } from './admin-format';

describe('admin formats', () => {
  it('gives bytes in the unit that fits, GB past a gigabyte', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5.0 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB');
    expect(formatBytes(-1)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
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
