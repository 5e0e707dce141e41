/** Boots Encore for a library benchmark on PGlite or (TEST_DATABASE_URL) a fresh PostgreSQL database. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { users } from '../../server/src/features/auth/auth.schema.js';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { serveOptionsNote } from '../serve-options.js';

export type Engine = 'pglite' | 'postgres';
export const benchEngines: Engine[] = process.env['TEST_DATABASE_URL'] ? ['pglite', 'postgres'] : ['pglite'];

export interface BenchApp {
  app: FastifyInstance;
  token: string;
  userId: number;
  dataDir: string;
  /** Closes the app and starts it again on the same data (as a restarted server finds it). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The node-options note is printed once per bench process. */
let noted = false;

/** `overrides`: settings beyond the environment's (e.g. `webDist`, to serve the built web app). */
export async function startBenchApp(engine: Engine, env: Record<string, string> = {}, overrides: Parameters<typeof loadConfig>[1] = {}): Promise<BenchApp> {
  if (!noted) console.log(serveOptionsNote());
  noted = true;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-bench-'));
  const database = engine === 'postgres' ? await freshDatabase() : undefined;
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER: 'off', PUBLIC_URL: 'http://encore.bench', ...(database ? { DATABASE_URL: database.url } : {}), ...env },
    overrides,
  );
  const app = await buildApp(config);
  const credentials = { userName: 'bench', password: 'bench password 1' };
  await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...credentials, email: 'bench@example.com' } });
  const { token } = (await app.inject({ method: 'POST', url: '/api/auth/signin', payload: credentials })).json<{ token: string }>();
  const rows = await app.encore.platform.database.db.select().from(users);
  const bench: BenchApp = {
    app,
    token,
    userId: rows[0]?.id ?? 0,
    dataDir,
    async restart() {
      await bench.app.close();
      bench.app = await buildApp(config);
    },
    async close() {
      await bench.app.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env['TEST_DATABASE_URL'] ?? '';
  const name = `encore_bench_${randomBytes(4).toString('hex')}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(`drop database if exists ${name} with (force)`) };
}

export function summarize(times: number[]): { median: number; p95: number; mean: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export const fmt = (value: number, digits = 1) => value.toFixed(digits);
