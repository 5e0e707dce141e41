import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { initialisePgliteDir } from '../../src/platform/db/pglite-initdb.js';
import { users } from '../../src/features/auth/auth.schema.js';

let root: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-initdb-'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('the embedded database on a new data folder', () => {
  it('is created by a child process, then opened, migrated and kept across restarts', async () => {
    const dir = path.join(root, 'data', 'db');
    const first = await openDatabase({ url: undefined, pgliteDir: dir });
    try {
      await first.db.insert(users).values({ userName: 'Ada', email: 'ada@example.org' });
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    // Nothing of the staging folder is left beside it.
    expect(await fs.readdir(path.dirname(dir))).toEqual(['db']);

    const again = await openDatabase({ url: undefined, pgliteDir: dir });
    try {
      expect((await again.db.select().from(users)).map((user) => user.userName)).toEqual(['Ada']);
    } finally {
      await again.close();
    }
  });

  it('leaves a folder that already holds a cluster, or anything else, alone', async () => {
    const cluster = path.join(root, 'existing');
    await fs.mkdir(cluster);
    await fs.writeFile(path.join(cluster, 'PG_VERSION'), '17\n');
    await initialisePgliteDir(cluster, []);
    expect(await fs.readdir(cluster)).toEqual(['PG_VERSION']);

    const other = path.join(root, 'other');
    await fs.mkdir(other);
    await fs.writeFile(path.join(other, 'notes.txt'), 'mine');
    await initialisePgliteDir(other, []);
    expect(await fs.readdir(other)).toEqual(['notes.txt']);
    expect((await fs.readdir(root)).filter((name) => name.includes('initdb'))).toEqual([]);
  });

  it('says why when the cluster cannot be made, and leaves no half-made folder', async () => {
    const dir = path.join(root, 'refused', 'db');
    await fs.mkdir(dir, { recursive: true });
    // A setting PostgreSQL refuses makes initdb fail in the child.
    const failure = await initialisePgliteDir(dir, ['shared_buffers=not-a-size']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^Could not create the embedded database/);
    expect(await fs.readdir(path.dirname(dir))).toEqual(['db']);
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
