import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { cronOf, keepSchedules, SCHEDULE_SEND_OFFSET_MS } from './job-schedules.js';
import { defineJob, jobKind, type AnyJobDefinition } from './jobs.types.js';

const logger = pino({ level: 'silent' });
const scheduled = (name: string, cron: string): AnyJobDefinition =>
  defineJob(jobKind(name, z.object({})), {
    handler: async () => undefined,
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 60,
    concurrency: 1,
    weight: 'light',
    schedule: { cron, payload: {} },
  });

describe('keeping schedules', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends each run in the middle of its minute, once, and goes on to the next', async () => {
    vi.setSystemTime(new Date('2026-11-25T10:14:50Z'));
    const sent: string[] = [];
    const schedules = keepSchedules(
      [
        scheduled('every-minute', '* * * * *'),
        scheduled('quarterly', '*/15 * * * *'),
        defineJob(jobKind('plain', z.object({})), { ...scheduled('x', '* * * * *'), schedule: undefined }),
      ],
      async (job) => {
        sent.push(`${job.name}@${new Date().toISOString()}`);
      },
      logger,
    );
    expect(schedules.list()).toEqual([
      { name: 'every-minute', cron: '* * * * *', next: new Date('2026-11-25T10:15:00Z') },
      { name: 'quarterly', cron: '*/15 * * * *', next: new Date('2026-11-25T10:15:00Z') },
    ]);
    await vi.advanceTimersByTimeAsync(39_000); // 10:15:29
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000); // 10:15:30
    expect(sent).toEqual(['every-minute@2026-11-25T10:15:30.000Z', 'quarterly@2026-11-25T10:15:30.000Z']);
    await vi.advanceTimersByTimeAsync(15 * 60_000); // 10:30:30
    expect(sent.filter((entry) => entry.startsWith('quarterly'))).toEqual(['quarterly@2026-11-25T10:15:30.000Z', 'quarterly@2026-11-25T10:30:30.000Z']);
    expect(sent.filter((entry) => entry.startsWith('every-minute'))).toHaveLength(16);
    schedules.stop();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(sent).toHaveLength(18);
  });

  it('still sends a run whose minute began less than the offset ago, and waits hours in steps', async () => {
    vi.setSystemTime(new Date(Date.parse('2026-11-25T10:17:00Z') + SCHEDULE_SEND_OFFSET_MS - 5_000));
    const sent: string[] = [];
    const schedules = keepSchedules(
      [scheduled('hourly', '17 * * * *'), scheduled('yearly', '0 0 1 1 *')],
      async (job) => {
        sent.push(`${job.name}@${new Date().toISOString()}`);
      },
      logger,
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent).toEqual(['hourly@2026-11-25T10:17:30.000Z']);
    // A run weeks away (past what one timer can wait) comes at its time.
    await vi.advanceTimersByTimeAsync(Date.parse('2027-01-01T00:00:30Z') - Date.now());
    expect(sent.filter((entry) => entry.startsWith('yearly'))).toEqual(['yearly@2027-01-01T00:00:30.000Z']);
    schedules.stop();
  });

  it('keeps the schedule when a send fails, and refuses a schedule that is not cron', async () => {
    vi.setSystemTime(new Date('2026-11-25T10:15:00Z'));
    let calls = 0;
    const schedules = keepSchedules(
      [scheduled('flaky', '* * * * *')],
      async () => {
        calls++;
        if (calls === 1) throw new Error('database away');
      },
      logger,
    );
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(calls).toBe(2);
    schedules.stop();
    expect(() => cronOf(scheduled('broken', '*/0 * * * *'))).toThrow(/^Job broken: "\*\/0 \* \* \* \*" is not a cron expression/);
  });
});
