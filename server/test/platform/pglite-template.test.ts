import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { EMBEDDED_INITDB_ARGS, EMBEDDED_INITDB_SETTINGS, walSettings } from '../../src/platform/db/embedded-settings.js';
import { initialisePgliteDir } from '../../src/platform/db/pglite-initdb.js';
import { embeddedTemplateFile, embeddedTemplatePath, makeEmbeddedTemplate, unpackEmbeddedTemplate } from '../../src/platform/db/pglite-template.js';
import { users } from '../../src/features/auth/auth.schema.js';

let root: string;
let template: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-template-'));
  // The build's step, into a folder of this test's own: the build's own template when there is
  // one (CI builds first), else made here in memory (about ten seconds).
  const built = await embeddedTemplateFile();
  if (built) await fs.copyFile(built, await embeddedTemplatePath(root));
  template = await makeEmbeddedTemplate(root);
}, 600_000);

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("a first start from the build's migrated empty cluster (issue 39)", () => {
  it('is named after what made it, and made once', async () => {
    expect(template).toBe(await embeddedTemplatePath(root));
    const { mtimeMs } = await fs.stat(template);
    expect(await makeEmbeddedTemplate(root)).toBe(template);
    expect((await fs.stat(template)).mtimeMs).toBe(mtimeMs);
  });

  it('unpacks into a new folder that opens migrated, with 1 MB log segments, and keeps its rows', async () => {
    const dir = path.join(root, 'data', 'db');
    await initialisePgliteDir(dir, EMBEDDED_INITDB_SETTINGS, { initdbArgs: EMBEDDED_INITDB_ARGS, template });
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    expect(await fs.readdir(path.join(root, 'data'))).toEqual(['db']);
    expect(await walSettings(dir)).toEqual(['min_wal_size=4MB', 'max_wal_size=16MB']);
    const first = await openDatabase({ url: undefined, pgliteDir: dir });
    try {
      const { rows } = await first.executor.executeSql("select current_setting('wal_segment_size') as size, current_setting('max_wal_size') as max");
      expect(rows).toEqual([{ size: '1MB', max: '16MB' }]);
      // One database: the unused templates are not shipped.
      const databases = await first.executor.executeSql('select datname from pg_database order by datname');
      expect(databases.rows).toEqual([{ datname: 'postgres' }]);
      await first.db.insert(users).values({ userName: 'Ada', email: 'ada@example.org' });
    } finally {
      await first.close();
    }
    const again = await openDatabase({ url: undefined, pgliteDir: dir });
    try {
      const { rows } = await again.executor.executeSql('select user_name as name from users');
      expect(rows).toEqual([{ name: 'Ada' }]);
    } finally {
      await again.close();
    }
  });

  it('refuses a damaged template (a first start then makes its cluster by initdb)', async () => {
    const damaged = path.join(root, 'damaged.tar.gz');
    const bytes = await fs.readFile(template);
    await fs.writeFile(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const dir = path.join(root, 'damaged', 'db');
    await expect(unpackEmbeddedTemplate(damaged, dir)).rejects.toThrow();
  });

  it('gives a cluster made before 1 MB segments the smallest log its 16 MB segments allow', async () => {
    const old = path.join(root, 'old');
    await fs.mkdir(path.join(old, 'pg_wal'), { recursive: true });
    await fs.writeFile(path.join(old, 'pg_wal', '000000010000000000000001'), Buffer.alloc(16 * 2 ** 20));
    expect(await walSettings(old)).toEqual(['min_wal_size=32MB', 'max_wal_size=64MB']);
    expect(await walSettings(undefined)).toEqual(['min_wal_size=4MB', 'max_wal_size=16MB']);
  });
});
