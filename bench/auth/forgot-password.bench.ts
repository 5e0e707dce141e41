/**
 * POST /api/email/forgot-password for accounts that exist and accounts that do not,
 * interleaved, each from its own client address (the per-address and per-e-mail limits stay
 * on): the medians and their difference, on PGlite and (TEST_DATABASE_URL) PostgreSQL. The
 * look-up and mail run in a background job, so the two should not differ. Prints figures;
 * asserts nothing.
 */
import { users } from '../../server/src/features/auth/auth.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type Engine } from '../library/bench-app.js';

const ACCOUNTS = 100;
/** The per-e-mail limit allows three requests an hour. */
const ROUNDS = 3;
const WARMUP = 20;

async function run(engine: Engine): Promise<void> {
  // The worker runs in the process, as in the default set-up, so its work competes for the CPU.
  const bench = await startBenchApp(engine, { WORKER: 'in-process' });
  try {
    const { app } = bench;
    await app.encore.platform.database.db
      .insert(users)
      .values(Array.from({ length: ACCOUNTS }, (_, i) => ({ userName: `known${i}`, email: `known${i}@example.com`, passwordHash: null })));
    let address = 0;
    const ask = (email: string, userName: string) =>
      timed(async () => {
        address += 1;
        const response = await app.inject({
          method: 'POST',
          url: '/api/email/forgot-password',
          payload: { email, userName },
          remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        });
        if (response.statusCode !== 200) throw new Error(`forgot-password answered ${response.statusCode}`);
      });

    for (let i = 0; i < WARMUP; i += 1) await ask(`warm${i}@example.com`, `warm${i}`);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let i = 0; i < ACCOUNTS; i += 1) {
        known.push((await ask(`known${i}@example.com`, `known${i}`)).ms);
        unknown.push((await ask(`ghost${round}-${i}@example.com`, `ghost${i}`)).ms);
      }
    }
    const k = summarize(known);
    const u = summarize(unknown);
    console.log(
      `${engine}: ${known.length} known / ${unknown.length} unknown requests · median ${fmt(k.median, 2)} vs ${fmt(u.median, 2)} ms ` +
        `(difference ${fmt(k.median - u.median, 2)} ms) · p95 ${fmt(k.p95, 2)} vs ${fmt(u.p95, 2)} ms`,
    );
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
