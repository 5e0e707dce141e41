import type { Logger } from '../logger.js';
import { parseCron, type Cron } from './cron.js';
import type { AnyJobDefinition } from './jobs.types.js';

/**
 * Sends scheduled jobs when their cron says (UTC). Every process keeps every schedule, whatever
 * `WORKER` says, and each scheduled run is sent once: a run is sent in the middle of its minute
 * with a pg-boss singleton of that minute (by the database's clock), so processes whose clocks
 * differ by up to 30 s all land on the one row.
 *
 * Encore keeps the schedules itself rather than through pg-boss's cron: pg-boss checks every
 * schedule every 30 s through a time-zone library that loads the ICU data (about 15 MiB more at
 * idle, with another worker polling), for three schedules Encore can compute.
 */
export interface Schedules {
  /** The scheduled jobs and when each next runs. */
  list(): { name: string; cron: string; next: Date }[];
  stop(): void;
}

/** How far into its minute a scheduled run is sent (see above). */
export const SCHEDULE_SEND_OFFSET_MS = 30_000;
/** The longest a schedule's timer waits before looking at the clock again (clock changes, long waits). */
const LONGEST_WAIT_MS = 10 * 60_000;

export type SendScheduled = (job: AnyJobDefinition) => Promise<unknown>;

/** Throws, naming the job, when a declared schedule is not a cron expression. */
export function cronOf(job: AnyJobDefinition): Cron | undefined {
  if (!job.schedule) return undefined;
  try {
    return parseCron(job.schedule.cron);
  } catch (error) {
    throw new Error(`Job ${job.name}: ${(error as Error).message}`);
  }
}

export function keepSchedules(definitions: readonly AnyJobDefinition[], send: SendScheduled, logger: Logger, now: () => number = Date.now): Schedules {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const entries = definitions.flatMap((job) => {
    const cron = cronOf(job);
    return cron ? [{ job, cron }] : [];
  });
  /** The next run's send time: a run whose minute began less than the offset ago is still ahead. */
  const nextSend = (cron: Cron) => cron.next(new Date(now() - SCHEDULE_SEND_OFFSET_MS)).getTime() + SCHEDULE_SEND_OFFSET_MS;

  const arm = (entry: (typeof entries)[number], at: number) => {
    if (stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (now() < at) return arm(entry, at); // woken early (a capped wait): wait on
        send(entry.job)
          .catch((error: unknown) => logger.warn({ err: error, job: entry.job.name }, 'could not send a scheduled job'))
          .finally(() => arm(entry, nextSend(entry.cron)));
      },
      Math.min(LONGEST_WAIT_MS, Math.max(0, at - now())),
    );
    timer.unref();
    timers.add(timer);
  };
  for (const entry of entries) arm(entry, nextSend(entry.cron));

  return {
    list() {
      return entries.map(({ job, cron }) => ({ name: job.name, cron: cron.expression, next: new Date(nextSend(cron) - SCHEDULE_SEND_OFFSET_MS) }));
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
