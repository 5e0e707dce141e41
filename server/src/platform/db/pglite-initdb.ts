import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unpackEmbeddedTemplate } from './pglite-template.js';

/**
 * The child's whole program (CommonJS, run by `node -e`, so it needs no file of its own and runs
 * the same from sources and from the build): create the cluster in argv[1] with the settings of
 * argv[3] and initdb's arguments of argv[4], then close it.
 */
const INITDB_PROGRAM = `
const [dir, pgliteUrl, conf, initdbArgs] = process.argv.slice(1);
import(pgliteUrl)
  .then(async ({ PGlite }) => {
    const db = await PGlite.create(dir, { postgresqlconf: JSON.parse(conf), initDbStartParams: JSON.parse(initdbArgs) });
    await db.close();
  })
  .catch((error) => {
    process.stderr.write(String((error && error.stack) || error));
    process.exitCode = 1;
  });
`;

/** How much of the child's complaint a failure quotes. */
const STDERR_TAIL_CHARS = 2_000;

/**
 * Creates the embedded database's cluster in `dir` when it has none yet, in a short-lived child
 * process. PGlite's initdb runs PostgreSQL's bootstrap inside WebAssembly and peaks at about
 * 800 MB; a WebAssembly memory never shrinks, so done in the server's own process that peak
 * would stay for its whole life (issue 14 measured 658 MB idle after a first start, against
 * about 260 MB after a restart). In a child the memory goes back with it.
 *
 * The cluster is built in a sibling folder and renamed into place, so a crash part-way leaves
 * no half-made cluster where the next start would look. A folder that already holds anything
 * else is left to PGlite untouched. When no child can be started, PGlite creates the cluster in
 * this process as before.
 */
export interface InitdbOptions {
  /** initdb's own arguments (PGlite's `initDbStartParams`). */
  initdbArgs?: readonly string[];
  /**
   * A migrated empty cluster made with these settings (pglite-template.ts): unpacked instead of
   * running initdb. A template that cannot be unpacked is set aside for initdb.
   */
  template?: string | undefined;
}

export async function initialisePgliteDir(dir: string, postgresqlconf: readonly string[], options: InitdbOptions = {}): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  if (existsSync(dir) && (await readdir(dir)).length > 0) return;
  const staging = path.join(path.dirname(dir), `.${path.basename(dir)}-initdb-${randomBytes(4).toString('hex')}`);
  const pgliteUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  try {
    const unpacked = options.template
      ? await unpackEmbeddedTemplate(options.template, staging).then(
          () => true,
          async () => {
            await rm(staging, { recursive: true, force: true });
            return false;
          },
        )
      : false;
    const outcome = unpacked ? 'done' : await runChild([staging, pgliteUrl, JSON.stringify(postgresqlconf), JSON.stringify(options.initdbArgs ?? [])]);
    if (outcome === 'unavailable') return;
    if (existsSync(dir)) await rmdir(dir);
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function runChild(args: string[]): Promise<'done' | 'unavailable'> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(process.execPath, ['-e', INITDB_PROGRAM, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.once('error', () => resolve('unavailable'));
    child.once('close', (code, signal) => {
      if (code === 0) resolve('done');
      else
        reject(
          new Error(
            `Could not create the embedded database (initdb ${signal ? `was stopped by ${signal}` : `exited with ${code}`}): ${stderr.trim() || 'no details'}`,
          ),
        );
    });
  });
}
