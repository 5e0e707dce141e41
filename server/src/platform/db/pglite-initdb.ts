import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The child's whole program (CommonJS, run by `node -e`, so it needs no file of its own and runs
 * the same from sources and from the build): create the cluster in argv[1] with the settings of
 * argv[3], then close it.
 */
const INITDB_PROGRAM = `
const [dir, pgliteUrl, conf] = process.argv.slice(1);
import(pgliteUrl)
  .then(async ({ PGlite }) => {
    const db = await PGlite.create(dir, { postgresqlconf: JSON.parse(conf) });
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
export async function initialisePgliteDir(dir: string, postgresqlconf: readonly string[]): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  if (existsSync(dir) && (await readdir(dir)).length > 0) return;
  const staging = path.join(path.dirname(dir), `.${path.basename(dir)}-initdb-${randomBytes(4).toString('hex')}`);
  const pgliteUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  try {
    const outcome = await runChild([staging, pgliteUrl, JSON.stringify(postgresqlconf)]);
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
