import { describe, expect, it } from 'vitest';
import { formatClockTime } from './clock-time.format';
import { formatFileSize } from './file-size.format';
import { formatFileType } from './file-type.format';
import { formatLongDate, formatShortDate } from './short-date.format';

describe('formatFileSize', () => {
  it('uses B below 1024, KB below 1048576 and MB above, with one decimal', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1048575)).toBe('1024.0 KB');
    expect(formatFileSize(1048576)).toBe('1.0 MB');
    expect(formatFileSize(5.25 * 1048576)).toBe('5.3 MB');
    expect(formatFileSize(-1)).toBe('0 B');
  });
});

describe('formatClockTime', () => {
  it('reads m:ss, and 0:00 for an unknown time', () => {
    expect(formatClockTime(0)).toBe('0:00');
    expect(formatClockTime(5.9)).toBe('0:05');
    expect(formatClockTime(65)).toBe('1:05');
    expect(formatClockTime(600)).toBe('10:00');
    expect(formatClockTime(3725)).toBe('1:02:05');
    expect(formatClockTime(Number.NaN)).toBe('0:00');
    expect(formatClockTime(Number.POSITIVE_INFINITY)).toBe('0:00');
    expect(formatClockTime(null)).toBe('0:00');
  });
});

describe('formatShortDate', () => {
  const now = new Date(2026, 5, 1, 12);
  it('shows the short month and the day', () => {
    expect(formatShortDate('2026-03-05T12:00:00Z', 'en', now)).toBe('Mar 5');
    expect(formatShortDate(new Date(2026, 11, 24, 12), 'en', now)).toBe('Dec 24');
    expect(formatShortDate('2026-03-05T12:00:00Z', 'he', now)).toMatch(/5/);
    expect(formatShortDate('not a date', 'en', now)).toBe('');
  });

  it('adds the year to a date of another year', () => {
    expect(formatShortDate(new Date(2025, 11, 24, 12), 'en', now)).toBe('Dec 24, 2025');
    expect(formatShortDate(new Date(2024, 2, 5, 12), 'he', now)).toMatch(/2024/);
  });

  it('adds the year in the long form', () => {
    expect(formatLongDate('2026-03-05T12:00:00Z', 'en')).toBe('Mar 5, 2026');
  });
});

describe('formatFileType', () => {
  it('names the type as users know it', () => {
    expect(formatFileType('audio/mpeg', 'song.mp3')).toBe('MP3');
    expect(formatFileType('audio/flac', 'x.flac')).toBe('FLAC');
    expect(formatFileType('audio/mp4', 'x.m4a')).toBe('M4A');
    expect(formatFileType('audio/ogg', 'x.opus')).toBe('OGG');
    expect(formatFileType('', 'old.wav')).toBe('WAV');
    expect(formatFileType('audio/x-aiff', 'noextension')).toBe('AIFF');
  });
});
