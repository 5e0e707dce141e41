import { describe, expect, it } from 'vitest';
import { formatTimeAgo } from './relative-time.format';

const now = new Date('2026-11-25T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

describe('formatTimeAgo', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(formatTimeAgo(ago(5 * 60 + 20), 'en', now)).toBe('5 minutes ago');
    expect(formatTimeAgo(ago(3600), 'en', now)).toBe('1 hour ago');
    expect(formatTimeAgo(ago(26 * 3600), 'en', now)).toBe('yesterday');
    expect(formatTimeAgo(ago(15 * 24 * 3600), 'en', now)).toBe('2 weeks ago');
    expect(formatTimeAgo(ago(5 * 60), 'he', now)).toBe('לפני 5 דקות');
  });

  it('gives nothing under a minute, for a clock ahead of ours, or for an unreadable date', () => {
    expect(formatTimeAgo(ago(59), 'en', now)).toBeNull();
    expect(formatTimeAgo(ago(-30), 'en', now)).toBeNull();
    expect(formatTimeAgo('not a date', 'en', now)).toBeNull();
  });
});
