import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { returnFreeMemoryEvery } from './platform/memory/free-memory.js';
import { startWorker } from './worker.js';
import { userCommand } from './cli/user.command.js';
import { accountsPort } from './features/auth/auth.port.js';
import { runImportCommand } from './features/library/import/import.command.js';
import { runBackupCommand, runRestoreCommand } from './cli/backup.command.js';
import { libraryModule } from './features/library/library.module.js';
import { encoreModules } from './features/modules.js';
import { orderModules } from './modules/module-graph.js';
import { StartedModules } from './modules/module-runtime.js';
import { processJobs } from './modules/process-jobs.js';
import { startPlatform } from './platform/platform.js';
import { MigrationError } from './platform/db/migrations.js';
import { logMixin } from './platform/log-context.js';

/**
 * PGlite's PostgreSQL is 9 MB of WebAssembly. V8 runs it as quickly compiled code and
 * recompiles each function that has run for a while with its optimising compiler; PostgreSQL's
 * start-up runs hundreds of functions just long enough for that, which cost about 0.6 s of CPU
 * on every start and 30-40 MiB that stay. With a budget 100 times the default only what keeps
 * running (queries' inner loops, the analysis) is recompiled; queries cost the same CPU
 * (bench/server/process.bench.ts). Set before any WebAssembly is compiled; PGlite compiles
 * when the app starts, below.
 */
v8.setFlagsFromString('--wasm-tiering-budget=180000000');

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

async function serve(): Promise<void> {
  const config = loadConfig(process.env, { webDist: WEB_DIST });
  const app = await buildApp(config);
  closeOnSignals(() => app.close());
  await app.listen({ port: config.port, host: config.host });
  await returnFreeMemoryEvery(config.memoryTrimSeconds, app.log);
  const { platform } = app.encore;
  app.log.info(
    {
      database: platform.database.driver,
      storage: platform.storage.driver,
      mail: platform.mailer.driver,
      worker: config.worker,
      dataDir: config.dataDir,
      secret: platform.secrets.source,
    },
    `Encore is ready at http://localhost:${config.port}`,
  );
}

async function worker(): Promise<void> {
  const config = loadConfig(process.env);
  // The same logger settings as `serve` (Fastify's pino): level and redaction.
  const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'], mixin: logMixin });
  const platform = await startWorker(config, logger);
  closeOnSignals(() => platform.close());
  await returnFreeMemoryEvery(config.memoryTrimSeconds, logger);
  logger.info({ database: platform.database.driver }, 'Encore worker is running');
}

/**
 * `main.ts import <folder> [--user <name>]`: the platform and the modules as a worker starts
 * them, without HTTP and without working jobs (those the import queues, analysis say, are the
 * server's or the worker's). Logs go to stderr below warnings unless LOG_LEVEL asks otherwise:
 * stderr is the progress line's.
 */
async function importFolder(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = pino({ level: process.env['LOG_LEVEL'] ? config.logLevel : 'warn' }, pino.destination(2));
  orderModules(encoreModules);
  const platform = await startPlatform(config, logger);
  const stop = new AbortController();
  process.on('SIGINT', () => {
    if (stop.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping after the current files (Ctrl-C again to stop at once)…\n');
    stop.abort();
  });
  process.on('SIGTERM', () => stop.abort());
  try {
    const modules = await StartedModules.start(encoreModules, platform, logger);
    await platform.jobs.register(processJobs(platform, modules));
    process.exitCode = await runImportCommand(process.argv.slice(3), {
      folderImport: modules.internals(libraryModule).folderImport,
      accounts: modules.port(accountsPort),
      stdout: process.stdout,
      stderr: process.stderr,
      signal: stop.signal,
      cwd: process.env['INIT_CWD'] ?? process.cwd(),
      ...(process.env['ENCORE_IMPORT_PAUSE_FILE'] ? { afterFile: pauseWhile(process.env['ENCORE_IMPORT_PAUSE_FILE']) } : {}),
    });
  } finally {
    await platform.close();
  }
}

/**
 * Tests' hook: after each file, while `file` exists, note `<file>.paused` and wait, so a test
 * can interrupt a run between two files.
 */
function pauseWhile(file: string): () => Promise<void> {
  return async () => {
    if (existsSync(file)) writeFileSync(`${file}.paused`, '');
    while (existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}

/** `main.ts backup <file>` / `main.ts restore <file>` (cli/backup.command.ts). */
function archiveCommand(run: typeof runBackupCommand): () => Promise<void> {
  return async () => {
    const config = loadConfig(process.env);
    process.exitCode = await run(process.argv.slice(3), {
      config,
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.env['INIT_CWD'] ?? process.cwd(),
    });
  };
}

function closeOnSignals(close: () => Promise<unknown>): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

const command = process.argv[2] ?? 'serve';
const commands: Record<string, () => Promise<void>> = {
  serve,
  worker,
  import: importFolder,
  user: userCommand,
  backup: archiveCommand(runBackupCommand),
  restore: archiveCommand(runRestoreCommand),
};
const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
if (!run) {
  console.error(
    `Unknown command '${command}'. Use 'serve', 'worker', 'import <folder>', 'user create|reset-password|list', 'backup <file>' or 'restore <file>'.`,
  );
  process.exit(2);
}
run().catch((error: unknown) => {
  // Messages written for the user: a MigrationError names the migration that failed and says nothing was applied.
  console.error(error instanceof ConfigError || error instanceof MigrationError ? error.message : error);
  process.exit(1);
});
