import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AnyJobDefinition } from '../../src/platform/jobs/jobs.types.js';
import { migrationsFingerprint, seedPgliteCluster } from './pglite-cluster.js';
import { openDatabase } from '../../src/platform/db/database.js';
import type { AnyModule } from '../../src/modules/module.js';

export type Engine = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server. */
export const engines: Engine[] = process.env['TEST_DATABASE_URL'] ? ['pglite', 'postgres'] : ['pglite'];

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A throw-away database on the PostgreSQL server of TEST_DATABASE_URL, dropped on close. It is
 * made from a template migrated once per set of migrations (the app's start then finds every
 * migration applied): a copy takes a tenth of a second where migrating takes one or two.
 */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `encore_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // A checkout with other migrations on the same server drops this one's template as stale: made again.
    for (let attempt = 1; ; attempt += 1) {
      const template = await migratedTemplate(adminUrl);
      try {
        await admin.query(`create database ${name} template ${template}`);
        break;
      } catch (error) {
        if (attempt >= 3 || !/template database .* does not exist/.test(String(error))) throw error;
        forgetTemplate(template);
      }
    }
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/** The migrated template's name, made by whichever test process needs it first (the others wait on a lock). */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= makeMigratedTemplate(adminUrl).catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

function forgetTemplate(name: string): void {
  void template?.then((made) => {
    if (made === name) template = undefined;
  });
  template = undefined;
}

const TEMPLATE_LOCK_ID = 7_243_112;

async function makeMigratedTemplate(adminUrl: string): Promise<string> {
  const name = `encore_template_${await migrationsFingerprint()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return name;
    // Templates of other migrations (an older checkout's) are of no more use.
    const stale = await admin.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, 'encore_template_') or starts_with(datname, 'encore_staging_')",
    );
    for (const row of stale.rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
    const staging = `encore_staging_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database ${staging}`);
    try {
      const database = await openDatabase({ url: databaseUrl(adminUrl, staging), pgliteDir: undefined });
      await database.close();
      await admin.query(`alter database ${staging} rename to ${name}`);
    } catch (error) {
      await admin.query(`drop database if exists ${staging} with (force)`);
      throw error;
    }
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => undefined);
    await admin.end();
  }
}

export async function startTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  options: { extraJobs?: AnyJobDefinition[]; modules?: readonly AnyModule[] } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-test-'));
  const postgres = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
  if (engine === 'pglite' && !env['DATA_DIR']) await seedPgliteCluster(dataDir);
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://encore.test',
      // Sonic analysis (issue 12) is CPU work other tests do not want: its own tests turn it on.
      ANALYSIS_BACKFILL: 'false',
      ANALYSIS_ON_INGEST: 'false',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ...env,
    },
    overrides,
  );
  const app = await buildApp(config, options).catch(async (error: unknown) => {
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits for the mail worker to write a message for `to` into the outbox and returns its text. */
export async function waitForOutboxMail(dataDir: string, to: string, timeoutMs = 15_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<string>();
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
      if (seen.has(file)) continue;
      const text = await readFile(path.join(outbox, file), 'utf8');
      if (text.includes(to)) return text;
      seen.add(file);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

/** The reset link of a password reset mail, decoded from quoted-printable if need be. */
export function resetLinkFrom(mail: string): URL {
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /http:\/\/encore\.test\/reset-password\?[^\s"<>]+/.exec(unfolded);
  if (!match) throw new Error('no reset link in the mail');
  return new URL(match[0].replace(/&amp;/g, '&'));
}
