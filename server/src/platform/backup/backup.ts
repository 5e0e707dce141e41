import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { isAtomicTempFile } from '../fs/atomic-write.js';
import type { Database } from '../db/database.js';
import type { Platform } from '../platform.js';
import { TarWriter } from './tar-archive.js';

/**
 * One backup archive: a gzipped tar of
 *   encore-backup.json   what it holds (BackupManifest)
 *   database.tar         the embedded database's folder (PGlite only)
 *   media/…              the local storage's objects (STORAGE=local only)
 *   secrets/…            the generated secret (sessions, signed URLs) when JWT_SECRET is unset
 * Never the music folders (read in place, the owner's own files), downloaded models (fetched
 * again), the mail outbox or caches.
 */
export const MANIFEST_NAME = 'encore-backup.json';
export const DATABASE_ENTRY = 'database.tar';
export const BACKUP_FORMAT = 'encore-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  covers: { database: boolean; storage: boolean; secrets: boolean };
  /** What the archive does not hold, and how to back that up. */
  notes: string[];
}

export interface BackupSources {
  dataDir: string;
  database: Pick<Database, 'driver' | 'snapshot'>;
  /** The local storage's root folder; undefined with S3. */
  localStorageRoot: string | undefined;
  /** Holds the storage's deletes while the snapshot is taken (the serving process's storage). */
  holdDeletes?: () => () => void;
}

/** What a backup leaves out with this configuration: told to the owner, and kept in the manifest. */
export function backupNotes(sources: Pick<BackupSources, 'database' | 'localStorageRoot'>): string[] {
  const notes: string[] = [];
  if (sources.database.driver === 'postgres')
    notes.push(
      'The database is PostgreSQL (DATABASE_URL): this archive does not hold it. Back it up with pg_dump (pg_dump -Fc "$DATABASE_URL" > encore.dump) just before this command, and restore it with pg_restore.',
    );
  if (!sources.localStorageRoot)
    notes.push(
      'Storage is S3 (STORAGE=s3): this archive does not hold the stored files. Turn on versioning of the bucket, or copy it (rclone sync, aws s3 sync) after the database dump.',
    );
  return notes;
}

/**
 * Writes one consistent archive to `out`: with deletes of the storage held, the database is
 * snapshotted and the stored files hard-linked into a staging folder (instant, and later
 * writes replace files rather than change them); then deletes go on while the archive is
 * written from the staging folder. Every file the database names is thus in the archive.
 */
export async function writeBackup(sources: BackupSources, out: Writable): Promise<BackupManifest> {
  const staging = path.join(sources.dataDir, `.backup-${randomBytes(6).toString('hex')}`);
  const notes = backupNotes(sources);
  let snapshot: Blob | undefined;
  let secrets: { name: string; body: Buffer }[] = [];
  const release = sources.holdDeletes?.();
  try {
    try {
      snapshot = sources.database.driver === 'pglite' && sources.database.snapshot ? await sources.database.snapshot() : undefined;
      if (sources.localStorageRoot) await linkTree(sources.localStorageRoot, path.join(staging, 'media'));
      secrets = await readSecrets(sources.dataDir);
    } finally {
      release?.();
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      covers: { database: snapshot !== undefined, storage: sources.localStorageRoot !== undefined, secrets: secrets.length > 0 },
      notes,
    };
    const gzip = createGzip();
    // One pipeline: an error on either side (a full disk, a closed output) rejects it and ends both.
    const piped = pipeline(gzip, out);
    const tar = new TarWriter(gzip);
    await tar.buffer(MANIFEST_NAME, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    if (snapshot) await tar.buffer(DATABASE_ENTRY, Buffer.from(await snapshot.arrayBuffer()));
    snapshot = undefined;
    for (const secret of secrets) await tar.buffer(`secrets/${secret.name}`, secret.body, new Date(), 0o600);
    if (sources.localStorageRoot) await archiveTree(tar, path.join(staging, 'media'), 'media');
    await tar.finish();
    gzip.end();
    await piped;
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Hard links of every object file below `from` (temp files of writes in progress left out). */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile() && !isAtomicTempFile(entry.name))
      await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return; // deleted just before the hold
        if (error.code === 'EXDEV' || error.code === 'EPERM') await copyFile(source, target);
        else throw error;
      });
  }
}

async function archiveTree(tar: TarWriter, dir: string, name: string): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  await tar.directory(name);
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await archiveTree(tar, file, `${name}/${entry.name}`);
    else if (entry.isFile()) {
      const info = await stat(file);
      await tar.file(`${name}/${entry.name}`, file, info.size, info.mtime);
    }
  }
}

async function readSecrets(dataDir: string): Promise<{ name: string; body: Buffer }[]> {
  const dir = path.join(dataDir, 'secrets');
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: { name: string; body: Buffer }[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    found.push({ name, body: await readFile(path.join(dir, name)) });
  }
  return found;
}

/** A Blob's bytes as Node buffers, for readTar. */
export function blobChunks(blob: Blob): AsyncIterable<Buffer> {
  return Readable.fromWeb(blob.stream() as Parameters<typeof Readable.fromWeb>[0]) as AsyncIterable<Buffer>;
}

/** The backup sources of a running process: its database, its storage (deletes held while snapshotting). */
export function platformBackupSources(platform: Platform): BackupSources {
  const { config, storage } = platform;
  return {
    dataDir: config.dataDir,
    database: platform.database,
    localStorageRoot: config.storage.driver === 'local' ? config.storage.root : undefined,
    holdDeletes: () => storage.holdDeletes(),
  };
}
