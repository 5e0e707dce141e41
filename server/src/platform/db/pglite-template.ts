import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import PgBoss from 'pg-boss';
import { placeTarEntry, readTar } from '../backup/tar-archive.js';
import { EMBEDDED_INITDB_ARGS, EMBEDDED_INITDB_SETTINGS, MIGRATIONS_FOLDER } from './embedded-settings.js';

/**
 * The migrated empty embedded cluster, made once by the build (`npm run build` runs
 * `dist/platform/db/pglite-template.js`) and unpacked by a first start into a new data folder
 * instead of running PGlite's initdb and every migration: that was 12-15 s of CPU on a fresh
 * instance (issue 39), an unpacked template well under one. It holds the job queue's schema
 * too (pg-boss's own construction, which it otherwise runs at the first start). The file is named after what made
 * it (PGlite's version, the cluster's settings, the migrations), so a start of different
 * sources never takes a stale one: without a matching file a first start makes its cluster as
 * before.
 */
const TEMPLATE_FOLDER = path.resolve(MIGRATIONS_FOLDER, '../dist');
/** Changes when makeEmbeddedTemplate makes a different cluster from the same migrations. */
const TEMPLATE_FORMAT = 2;
/** pg-boss's default schema, which the job queue uses. */
const JOB_QUEUE_SCHEMA = 'pgboss';

/** A fingerprint of the migrations (server/drizzle): names and contents, in order. */
export async function migrationsFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else hash.update(entry.name).update(await readFile(full));
    }
  };
  await walk(MIGRATIONS_FOLDER);
  return hash.digest('hex').slice(0, 16);
}

let key: Promise<string> | undefined;

/** What the template depends on, hashed. */
export function embeddedTemplateKey(): Promise<string> {
  key ??= (async () => {
    const versions = await Promise.all([packageVersion('@electric-sql/pglite'), packageVersion('pg-boss')]);
    return createHash('sha256')
      .update(JSON.stringify([TEMPLATE_FORMAT, versions, EMBEDDED_INITDB_SETTINGS, EMBEDDED_INITDB_ARGS, await migrationsFingerprint()]))
      .digest('hex')
      .slice(0, 16);
  })();
  return key;
}

async function packageVersion(name: string): Promise<string> {
  const require = createRequire(import.meta.url);
  // Up from the entry point to the package's own package.json (a folder may have one of its own).
  for (let dir = path.dirname(require.resolve(name)); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(await readFile(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === name) return `${name}@${manifest.version ?? ''}`;
  }
  return name;
}

/** The template file these sources would use (it may not exist). */
export async function embeddedTemplatePath(folder = TEMPLATE_FOLDER): Promise<string> {
  return path.join(folder, `embedded-template-${await embeddedTemplateKey()}.tar.gz`);
}

/** The template made for these sources, when the build made one. */
export async function embeddedTemplateFile(): Promise<string | undefined> {
  const file = await embeddedTemplatePath();
  return existsSync(file) ? file : undefined;
}

/**
 * Makes the template in `folder` unless it is there already: a cluster in memory, made with the
 * embedded settings, migrated, and dumped as a gzipped tar. Older templates in the folder go.
 * Returns the file.
 */
export async function makeEmbeddedTemplate(folder = TEMPLATE_FOLDER): Promise<string> {
  const file = await embeddedTemplatePath(folder);
  if (existsSync(file)) return file;
  const client = await PGlite.create({
    initDbStartParams: [...EMBEDDED_INITDB_ARGS],
    postgresqlconf: [...EMBEDDED_INITDB_SETTINGS],
    extensions: { pg_trgm, unaccent },
  });
  let archive: Blob;
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    // The job queue's tables too, as pg-boss makes them at its first start (it finds them made).
    await client.exec(PgBoss.getConstructionPlans(JOB_QUEUE_SCHEMA));
    // An embedded cluster is one database: the two PostgreSQL keeps to copy for CREATE DATABASE
    // (template0 and template1, 7 MB each, half of an empty cluster) are never used. Each
    // statement on its own: DROP DATABASE cannot run in the implicit transaction of a batch.
    await client.query("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
    await client.query('drop database template0');
    await client.query('drop database template1');
    await client.exec('checkpoint');
    archive = await client.dumpDataDir('gzip');
  } finally {
    await client.close();
  }
  const staging = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(staging, Buffer.from(await archive.arrayBuffer()));
  await rename(staging, file);
  for (const name of await readdir(folder)) {
    if (name.startsWith('embedded-template-') && path.join(folder, name) !== file) await rm(path.join(folder, name), { force: true });
  }
  return file;
}

/** Unpacks the template `file` into the new folder `dir` (which must not exist yet). */
export async function unpackEmbeddedTemplate(file: string, dir: string): Promise<void> {
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(file), gunzip);
  const unpacking = readTar(gunzip, (entry) => placeTarEntry(dir, entry.name, entry));
  await Promise.all([reading, unpacking]);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${file} holds no database cluster`);
}

// `node dist/platform/db/pglite-template.js`: the build's step.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  makeEmbeddedTemplate().then(
    (file) => process.stdout.write(`embedded database template: ${path.relative(process.cwd(), file)} (${Math.round(performance.now() - started)} ms)\n`),
    (error: unknown) => {
      console.error('Could not make the embedded database template:', error);
      process.exitCode = 1;
    },
  );
}
