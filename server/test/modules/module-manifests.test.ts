import { readFile } from 'node:fs/promises';
import { getTableName } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encoreModules } from '../../src/features/modules.js';
import { withModuleTable } from '../../src/modules/module-docs.js';
import { allTables } from '../support/all-tables.js';

/** Tables of the platform's own components (tasks, job liveness, mail, rate limits), not of a feature. */
const PLATFORM_TABLES = ['tasks', 'job_workers', 'job_claims', 'mail_deliveries', 'rate_limit_counters'];

describe('module manifests', () => {
  it('give every table of the schema exactly one owner', async () => {
    const tables = (await allTables()).map((table) => getTableName(table));
    const owned = [...encoreModules.flatMap((module) => module.tables.map((table) => getTableName(table))), ...PLATFORM_TABLES];
    expect([...owned].sort()).toEqual([...tables].sort());
  });

  it('are what the features README lists (npm run docs:features)', async () => {
    const readme = await readFile(new URL('../../src/features/README.md', import.meta.url), 'utf8');
    expect(readme).toBe(withModuleTable(readme, encoreModules));
  });
});
