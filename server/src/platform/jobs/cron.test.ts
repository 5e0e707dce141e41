import { describe, expect, it } from 'vitest';
import { CronError, parseCron } from './cron.js';

const next = (expression: string, after: string) => parseCron(expression).next(new Date(after)).toISOString();

describe('cron expressions (UTC)', () => {
  it('finds the next minute of the schedules Encore declares', () => {
    expect(next('* * * * *', '2026-11-25T10:15:42.123Z')).toBe('2026-11-25T10:16:00.000Z');
    // Strictly after: a time on the minute gives the next one.
    expect(next('* * * * *', '2026-11-25T10:16:00.000Z')).toBe('2026-11-25T10:17:00.000Z');
    expect(next('*/15 * * * *', '2026-11-25T10:15:00.000Z')).toBe('2026-11-25T10:30:00.000Z');
    expect(next('*/15 * * * *', '2026-11-25T10:59:59.000Z')).toBe('2026-11-25T11:00:00.000Z');
    expect(next('17 * * * *', '2026-11-25T10:17:30.000Z')).toBe('2026-11-25T11:17:00.000Z');
    expect(next('17 * * * *', '2026-12-31T23:20:00.000Z')).toBe('2027-01-01T00:17:00.000Z');
  });

  it('reads ranges, steps, lists and both day fields as cron does', () => {
    expect(next('0 9-17/4 * * *', '2026-11-25T09:00:00.000Z')).toBe('2026-11-25T13:00:00.000Z');
    expect(next('5/20 * * * *', '2026-11-25T10:26:00.000Z')).toBe('2026-11-25T10:45:00.000Z');
    expect(next('0,30 3 * * *', '2026-11-25T03:00:00.000Z')).toBe('2026-11-25T03:30:00.000Z');
    // 2026-11-25 is a Wednesday: the next Sunday (0 or 7) is the 29th.
    expect(next('0 4 * * 0', '2026-11-25T12:00:00.000Z')).toBe('2026-11-29T04:00:00.000Z');
    expect(next('0 4 * * 7', '2026-11-25T12:00:00.000Z')).toBe('2026-11-29T04:00:00.000Z');
    // Both days restricted: the 1st of a month or a Monday, whichever comes first.
    expect(next('0 0 1 * 1', '2026-11-25T12:00:00.000Z')).toBe('2026-11-30T00:00:00.000Z');
    expect(next('0 0 1 * 1', '2026-11-30T12:00:00.000Z')).toBe('2026-12-01T00:00:00.000Z');
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00.000Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 12 31 * *', '2026-11-25T00:00:00.000Z')).toBe('2026-12-31T12:00:00.000Z');
  });

  it('refuses what is not a cron expression, saying which field is wrong', () => {
    expect(() => parseCron('* * * *')).toThrow(/needs 5 fields .* it has 4/);
    expect(() => parseCron('60 * * * *')).toThrow(/minute field "60" is outside 0-59/);
    expect(() => parseCron('* 24 * * *')).toThrow(/hour field "24" is outside 0-23/);
    expect(() => parseCron('* * 0 * *')).toThrow(/day of month field "0" is outside 1-31/);
    expect(() => parseCron('* * * JAN *')).toThrow(CronError);
    expect(() => parseCron('*/0 * * * *')).toThrow(/step of 0/);
    expect(() => parseCron('30-10 * * * *')).toThrow(/ends before it starts/);
    expect(() => parseCron('0 0 30 2 *').next(new Date('2026-01-01T00:00:00Z'))).toThrow(/matches no date/);
  });
});
