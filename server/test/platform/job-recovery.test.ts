import fs from 'node:fs/promises';
import path from 'node:path';
import { sendMailJob } from '../../src/platform/mail/mail.jobs.js';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { engines, startTestApp, waitForOutboxMail } from '../support/test-app.js';

const OLD = new Date(Date.now() - 3600_000);

/**
 * Issue 8: a process killed mid-send left a mail job `active` until pg-boss's 15-minute
 * default expiry, and kill -9 left temp files behind. A restart must resume the one and
 * remove the other.
 */
describe.each(engines)('restart after a crash on %s', (engine) => {
  it('delivers a mail job left active within seconds, removes crash-left temp files, and keeps the clean-up scheduled', async () => {
    // The first process only queues (WORKER=off), as a serving process behind separate workers does.
    const first = await startTestApp(engine, { WORKER: 'off' });
    const { config, dataDir } = first;
    let second: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const { database, jobs } = first.app.encore.platform;
      expect(jobs.schedules().map((schedule) => schedule.name)).toEqual(expect.arrayContaining(['maintenance.cleanup', 'tasks.sweep-abandoned']));

      const id = await jobs.send(sendMailJob, { to: 'crash@example.com', subject: 'Interrupted', text: 'Sent once the process is back.' });
      // The process took the job and died mid-send. On PostgreSQL other live processes may be
      // working jobs, so only one past its expiry counts as abandoned; PGlite has one process.
      const startedAgo = engine === 'pglite' ? '1 second' : '2 minutes';
      await database.executor.executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() - $2::interval WHERE id = $1`, [id, startedAgo]);

      const covers = path.join(dataDir, 'media', 'covers', 'c1');
      await fs.mkdir(covers, { recursive: true });
      const staleTemp = path.join(covers, '.0123456789abcdef.tmp');
      const freshTemp = path.join(covers, '.00112233445566ff.tmp');
      await fs.writeFile(staleTemp, 'half a cover');
      await fs.writeFile(freshTemp, 'half a cover');
      await fs.utimes(staleTemp, OLD, OLD);
      await first.app.close();

      second = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}) }));
      // Handed back during the start-up, not at its expiry: once started, the job is no longer
      // the attempt that died (a retry waiting, or taken again: its count went up).
      const { rows } = await second.encore.platform.database.executor.executeSql('SELECT state, retry_count FROM pgboss.job WHERE id = $1', [id]);
      const row = rows[0] as { state: string; retry_count: number };
      expect(row.state === 'retry' || row.retry_count >= 1).toBe(true);
      const mail = await waitForOutboxMail(dataDir, 'crash@example.com', 50_000);
      expect(mail).toContain('Interrupted');

      // Swept in the background after start-up.
      const exists = (file: string) =>
        fs.stat(file).then(
          () => true,
          () => false,
        );
      await expect.poll(() => exists(staleTemp)).toBe(false);
      // With PGlite nothing else can be writing in DATA_DIR; on PostgreSQL a fresh one may be another process's.
      if (engine === 'pglite') await expect.poll(() => exists(freshTemp)).toBe(false);
      else expect((await fs.stat(freshTemp)).isFile()).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
