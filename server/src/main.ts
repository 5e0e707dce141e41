import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { returnFreeMemoryEvery } from './platform/memory/free-memory.js';
import { startWorker } from './worker.js';

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
  const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] });
  const platform = await startWorker(config, logger);
  closeOnSignals(() => platform.close());
  await returnFreeMemoryEvery(config.memoryTrimSeconds, logger);
  logger.info({ database: platform.database.driver }, 'Encore worker is running');
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
const run = command === 'worker' ? worker : command === 'serve' ? serve : undefined;
if (!run) {
  console.error(`Unknown command '${command}'. Use 'serve' or 'worker'.`);
  process.exit(2);
}
run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
