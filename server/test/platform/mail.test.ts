import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { mailDeliveries } from '../../src/platform/mail/mail.schema.js';
import type { JobContext } from '../../src/platform/jobs/jobs.types.js';
import type { Logger } from '../../src/platform/logger.js';
import { MailDeliveries } from '../../src/platform/mail/mail-deliveries.js';
import { mailJobs } from '../../src/platform/mail/mail.jobs.js';
import { createMailer } from '../../src/platform/mail/mailer.js';
import type { MailMessage, Mailer } from '../../src/platform/mail/mail.types.js';
import { engines, freshPostgresDatabase } from '../support/test-app.js';

interface LogLine {
  level: 'info' | 'warn' | 'error' | 'debug';
  obj: unknown;
  msg: string | undefined;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

const FROM = 'Encore <encore@example.org>';
const RESET_LINK = 'http://localhost:8080/reset-password/6f1c2b7a9e';
const message = {
  to: 'ada@example.org',
  subject: 'Reset your Encore password',
  text: `Hello Ada,\n\nOpen ${RESET_LINK}.\nOr visit https://encore.example.org/help (if you need help).\n`,
};

/** The mail job as the job runner calls it, for the job `jobId`. */
function runMailJob(mailer: Mailer, message: MailMessage, jobId: string): Promise<unknown> {
  const [job] = mailJobs(mailer);
  const context: JobContext = { jobId, signal: new AbortController().signal, progress: async () => undefined, task: undefined };
  return job!.handler(message, context);
}

describe.each(engines)('mail on %s', (engine) => {
  let dir: string;
  let database: Database;
  let deliveries: MailDeliveries;
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-mail-'));
    const postgres = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
    dropDatabase = postgres?.drop;
    database = await openDatabase({ url: postgres?.url, pgliteDir: undefined });
    deliveries = new MailDeliveries(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await dropDatabase?.();
    await fs.rm(dir, { recursive: true, force: true });
  });

  describe('SMTP mailer', () => {
    const received: { from: string; to: string[]; raw: string }[] = [];
    let server: SMTPServer;
    let port: number;

    beforeAll(async () => {
      server = new SMTPServer({
        secure: false,
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw: Buffer.concat(chunks).toString('utf8'),
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(resolve));
    });

    it('delivers the message to the SMTP server', async () => {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outboxDir: path.join(dir, 'unused') }, recordingLogger(), deliveries);
      expect(mailer.driver).toBe('smtp');
      await expect(mailer.check()).resolves.toBeUndefined();
      await mailer.send(message, { id: randomUUID() });
      await mailer.close();

      expect(received).toHaveLength(1);
      const [mail] = received;
      expect(mail?.from).toBe('encore@example.org');
      expect(mail?.to).toEqual(['ada@example.org']);
      expect(mail?.raw).toContain('Subject: Reset your Encore password');
      expect(mail?.raw).toContain('From: Encore <encore@example.org>');
      expect(mail?.raw).toContain(RESET_LINK);
      await expect(fs.stat(path.join(dir, 'unused'))).rejects.toThrow();
    });

    it('delivers a mail job that runs again (a restart after kill -9) once, with a Message-ID of the job', async () => {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outboxDir: path.join(dir, 'unused') }, recordingLogger(), deliveries);
      const jobId = randomUUID();
      const before = received.length;
      await runMailJob(mailer, message, jobId);
      await runMailJob(mailer, message, jobId);
      expect(received.slice(before)).toHaveLength(1);
      expect(received.at(-1)?.raw).toMatch(new RegExp(`^Message-ID: <${jobId}@example\\.org>\r?$`, 'mi'));

      // Killed between the send and its mark, a re-run sends again, but the same message: the
      // receiver's mail system sees the Message-ID it already has.
      await database.db.delete(mailDeliveries).where(eq(mailDeliveries.jobId, jobId));
      await runMailJob(mailer, message, jobId);
      await mailer.close();
      const ids = received.slice(before).map((mail) => /^Message-ID: (.+?)\r?$/im.exec(mail.raw)?.[1]);
      expect(ids).toEqual([`<${jobId}@example.org>`, `<${jobId}@example.org>`]);
    });

    it('fails its health check when the server cannot be reached', async () => {
      const closed = new SMTPServer({ logger: false });
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const deadPort = (closed.server.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(resolve));
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${deadPort}`, from: FROM, outboxDir: dir }, recordingLogger(), deliveries);
      await expect(mailer.check()).rejects.toThrow();
      await mailer.close();
    });
  });

  describe('outbox mailer', () => {
    it('writes an .eml file and logs one line with the links', async () => {
      const outboxDir = path.join(dir, 'outbox');
      const logger = recordingLogger();
      const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir }, logger, deliveries);
      expect(mailer.driver).toBe('outbox');
      await expect(mailer.check()).resolves.toBeUndefined();
      await mailer.send({ ...message, html: `<p>Open <a href="${RESET_LINK}">this link</a>.</p>` }, { id: 'e3b1c6a0-5f7e-4a39-9d1e-2a6c0b8f4d21' });
      await mailer.close();

      const files = await fs.readdir(outboxDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-e3b1c6a0-5f7e-4a39-9d1e-2a6c0b8f4d21\.eml$/);
      const eml = await fs.readFile(path.join(outboxDir, files[0] ?? ''), 'utf8');
      expect(eml).toContain('Subject: Reset your Encore password');
      expect(eml).toContain('To: ada@example.org');
      expect(eml).toContain('From: Encore <encore@example.org>');
      expect(eml).toContain(RESET_LINK);
      expect(eml).toContain('Content-Type: text/html');
      expect(eml).toContain('\r\n');

      expect(logger.lines).toEqual([
        {
          level: 'info',
          msg: 'mail written to outbox',
          obj: { to: 'ada@example.org', subject: 'Reset your Encore password', links: [RESET_LINK, 'https://encore.example.org/help'] },
        },
      ]);
    });

    it('writes one file for a mail job that runs again, also when it was killed before the sent mark', async () => {
      const outboxDir = path.join(dir, 'outbox-rerun');
      const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir }, recordingLogger(), deliveries);
      const jobId = randomUUID();
      await runMailJob(mailer, message, jobId);
      await runMailJob(mailer, message, jobId);
      await database.db.delete(mailDeliveries).where(eq(mailDeliveries.jobId, jobId));
      await runMailJob(mailer, message, jobId);
      await mailer.close();
      const files = await fs.readdir(outboxDir);
      expect(files).toHaveLength(1);
      expect(files[0]?.endsWith(`-${jobId}.eml`)).toBe(true);
      expect(await fs.readFile(path.join(outboxDir, files[0] ?? ''), 'utf8')).toMatch(new RegExp(`^Message-ID: <${jobId}@example\\.org>\r$`, 'mi'));
      expect(await deliveries.isSent(jobId)).toBe(true);
    });

    it('fails its health check when the outbox cannot be created', async () => {
      const file = path.join(dir, 'not-a-folder');
      await fs.writeFile(file, 'x');
      const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir: path.join(file, 'outbox') }, recordingLogger(), deliveries);
      await expect(mailer.check()).rejects.toThrow();
      await expect(mailer.send(message, { id: randomUUID() })).rejects.toThrow();
      await mailer.close();
    });
  });
});
