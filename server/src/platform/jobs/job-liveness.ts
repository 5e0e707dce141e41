import { hostname } from 'node:os';
import { and, eq, ne, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db/database.js';
import { jobClaims, jobWorkers } from './jobs.schema.js';
import type { Logger } from '../logger.js';

/**
 * Which process runs which job, so that a job whose process died is retried within seconds
 * instead of at its expiry (hours for a render or a transcription).
 *
 * With PGlite there is one process, and a start-up finds every job left active (jobs.ts). On
 * PostgreSQL other processes may be alive and working: a process that works jobs registers in
 * `job_workers` and holds a session advisory lock on its id through a connection of its own,
 * and claims each job it runs in `job_claims`. PostgreSQL ends the lock with the connection,
 * which the kernel closes when the process dies, SIGKILL included. Every process sweeps: a
 * worker whose lock it can take, at two sweeps DEAD_AFTER_MS apart, is dead, and the jobs it
 * claimed are handed back for a retry. A live process whose event loop is busy keeps its lock,
 * so it is never taken for dead.
 */
export interface JobLiveness {
  /** Registers this process as a worker (once; the processes that work jobs). */
  register(): Promise<void>;
  /** Records that this process runs the job; a failure is logged, never thrown. */
  claim(queue: string, jobId: string): Promise<void>;
  /** Forgets the claim once the job's attempt is over. */
  release(jobId: string): Promise<void>;
  /**
   * Hands the jobs dead workers had claimed to `handBack` (which retries them), then removes the
   * workers' rows and claims. Should `handBack` throw, nothing is removed and the next sweep tries
   * again. Returns the jobs handed back.
   */
  sweep(handBack: HandBack): Promise<ClaimedJob[]>;
  stop(): Promise<void>;
}

export interface ClaimedJob {
  queue: string;
  jobId: string;
}

export type HandBack = (jobs: readonly ClaimedJob[]) => Promise<void>;

/** The first key of the two-key advisory locks that mark a live worker (any constant; "Enc"). */
export const WORKER_LOCK_SPACE = 0x456e63;
/** How long a lost liveness connection waits before it connects again. */
const RECONNECT_MS = 2000;
/**
 * A worker is taken for dead when its lock was free at two sweeps at least this far apart: when
 * the database restarts, every worker loses its lock at once and takes it back within
 * RECONNECT_MS, and a sweep in between must not hand back every job of every worker.
 */
export const DEAD_AFTER_MS = 5000;

/**
 * The liveness connection also listens for new jobs: a sender NOTIFYs `channel` with the job's
 * queue, and `wake(queue)` wakes this process's workers of it (`wake(undefined)`: all of them,
 * after the connection was lost and notifications may have been missed).
 */
export interface JobWakeups {
  channel: string;
  wake(queue: string | undefined): void;
}

export function createJobLiveness(database: Database, logger: Logger, wakeups: JobWakeups): JobLiveness {
  if (database.driver === 'pglite' || !database.connectionString) return noLiveness;
  return new PostgresLiveness(database, database.connectionString, logger, wakeups);
}

const noLiveness: JobLiveness = {
  async register() {},
  async claim() {},
  async release() {},
  async sweep() {
    return [];
  },
  async stop() {},
};

class PostgresLiveness implements JobLiveness {
  private workerId: number | undefined;
  private client: pg.Client | undefined;
  private registering: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Workers whose lock a sweep found free, and when it first did. */
  private readonly suspects = new Map<number, number>();

  constructor(
    private readonly database: Database,
    private readonly connectionString: string,
    private readonly logger: Logger,
    private readonly wakeups: JobWakeups,
  ) {}

  register(): Promise<void> {
    this.registering ??= this.connect(undefined);
    return this.registering;
  }

  /**
   * Opens the liveness connection and holds the lock of `previous` when its row is still there
   * (a connection lost and found again before anyone swept it); else registers a new worker.
   */
  private async connect(previous: number | undefined): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'encore-worker-liveness' });
    client.on('error', (error: unknown) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message) => {
      if (message.channel === this.wakeups.channel) this.wakeups.wake(message.payload || undefined);
    });
    await client.connect();
    try {
      let id: number | undefined;
      if (previous !== undefined) {
        // Waits while a sweeper holds it (then the row is gone, and a new one is made).
        await client.query('SELECT pg_advisory_lock($1, $2)', [WORKER_LOCK_SPACE, previous]);
        const { rows } = await client.query('SELECT 1 FROM job_workers WHERE id = $1', [previous]);
        if (rows.length > 0) id = previous;
        else {
          await client.query('SELECT pg_advisory_unlock($1, $2)', [WORKER_LOCK_SPACE, previous]);
          this.logger.warn({ worker: previous }, 'this process was taken for dead while its database connection was lost; its running jobs were handed back');
        }
      }
      if (id === undefined) {
        // Locked before the row is visible to others, so no sweeper sees it unlocked.
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: number }>('INSERT INTO job_workers (host, pid) VALUES ($1, $2) RETURNING id', [hostname(), process.pid]);
        id = (rows[0] as { id: number }).id;
        await client.query('SELECT pg_advisory_lock($1, $2)', [WORKER_LOCK_SPACE, id]);
        await client.query('COMMIT');
      }
      await client.query(`LISTEN ${client.escapeIdentifier(this.wakeups.channel)}`);
      this.workerId = id;
      this.client = client;
      // Jobs sent while the connection was down were notified to nobody.
      if (previous !== undefined) this.wakeups.wake(undefined);
      if (this.stopped) await this.stop();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    this.logger.warn({ err: error, worker: this.workerId }, 'the worker liveness connection was lost; connecting again');
    client.end().catch(() => undefined);
    const again = () => {
      this.reconnectTimer = undefined;
      if (this.stopped) return;
      this.connect(this.workerId).catch((failure: unknown) => {
        this.logger.warn({ err: failure }, 'could not connect the worker liveness connection again');
        this.reconnectTimer = setTimeout(again, RECONNECT_MS);
        this.reconnectTimer.unref();
      });
    };
    this.reconnectTimer = setTimeout(again, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  async claim(queue: string, jobId: string): Promise<void> {
    const workerId = this.workerId;
    if (workerId === undefined) return;
    try {
      // The job may be a retry another worker once claimed: the newest claim is the one.
      await this.database.db
        .insert(jobClaims)
        .values({ jobId, queue, workerId })
        .onConflictDoUpdate({ target: jobClaims.jobId, set: { queue, workerId, claimedAt: sql`now()` } });
    } catch (error) {
      // Without its claim the job is still retried, at its expiry.
      this.logger.warn({ err: error, job: jobId }, 'could not record which process runs this job');
    }
  }

  async release(jobId: string): Promise<void> {
    const workerId = this.workerId;
    if (workerId === undefined) return;
    await this.database.db
      .delete(jobClaims)
      .where(and(eq(jobClaims.jobId, jobId), eq(jobClaims.workerId, workerId)))
      .catch((error: unknown) => this.logger.warn({ err: error, job: jobId }, 'could not remove the claim of a finished job'));
  }

  async sweep(handBack: HandBack): Promise<ClaimedJob[]> {
    const { db } = this.database;
    const others = await db
      .select({ id: jobWorkers.id })
      .from(jobWorkers)
      .where(this.workerId === undefined ? undefined : ne(jobWorkers.id, this.workerId));
    const handedBack: ClaimedJob[] = [];
    const now = Date.now();
    for (const suspect of this.suspects.keys()) if (!others.some((other) => other.id === suspect)) this.suspects.delete(suspect);
    for (const { id } of others) {
      // Taken only when its worker's connection is gone; held to the end of this transaction,
      // so two sweepers never hand back the same worker's jobs.
      const claims = await db.transaction(async (tx) => {
        // node-postgres answers execute with its QueryResult, whose rows the generic Db does not type.
        const { rows } = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${WORKER_LOCK_SPACE}, ${id}) AS free`)) as unknown as {
          rows: { free: boolean }[];
        };
        if (!rows[0]?.free) {
          this.suspects.delete(id);
          return [];
        }
        const since = this.suspects.get(id);
        if (since === undefined) this.suspects.set(id, now);
        if (since === undefined || now - since < DEAD_AFTER_MS) return [];
        const taken = await tx.select({ queue: jobClaims.queue, jobId: jobClaims.jobId }).from(jobClaims).where(eq(jobClaims.workerId, id));
        // Retried while the lock is held, and forgotten only once retried: a hand-back that
        // fails (the database refusing pg-boss a connection) is tried again at the next sweep.
        await handBack(taken);
        await tx.delete(jobClaims).where(eq(jobClaims.workerId, id));
        await tx.delete(jobWorkers).where(eq(jobWorkers.id, id));
        this.suspects.delete(id);
        return taken;
      });
      handedBack.push(...claims);
    }
    return handedBack;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    const workerId = this.workerId;
    this.client = undefined;
    if (!client) return;
    // A worker that finished its jobs leaves nothing; one stopped mid-job leaves its row and
    // claims, which the next sweep (its own next start at the latest) hands back once the lock goes.
    await client
      .query('DELETE FROM job_workers w WHERE w.id = $1 AND NOT EXISTS (SELECT 1 FROM job_claims c WHERE c.worker_id = w.id)', [workerId])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not remove this worker from job_workers'));
    await client.end().catch(() => undefined);
  }
}
