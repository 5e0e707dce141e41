import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { writeBackup, type BackupManifest } from '../platform/backup/backup.js';
import { requestBackup } from '../platform/backup/control-socket.js';
import { readBackupManifest, restoreBackup, RestoreError } from '../platform/backup/restore.js';
import { openDatabase, type Database } from '../platform/db/database.js';
import { EmbeddedDatabaseInUseError } from '../platform/db/embedded-lock.js';

export interface CommandIo {
  config: Config;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where relative paths are read from (npm run sets INIT_CWD to the caller's folder). */
  cwd: string;
}

const BACKUP_USAGE = 'Usage: encore backup <file.tar.gz>  (npm run backup -- <file>)';
const RESTORE_USAGE = 'Usage: encore restore <file.tar.gz>  (npm run restore -- <file>), into an empty DATA_DIR';

/**
 * `backup <file>`: one consistent archive of the database (embedded) and Encore's own stored
 * files, while Encore serves or not. With the embedded database the serving process takes it
 * (control-socket.ts); with none running, this process opens the folder itself.
 */
export async function runBackupCommand(args: string[], io: CommandIo): Promise<number> {
  const [target, ...rest] = args;
  if (!target || rest.length > 0 || target.startsWith('-')) {
    io.stderr.write(`${BACKUP_USAGE}\n`);
    return 2;
  }
  const file = path.resolve(io.cwd, target);
  if (existsSync(file)) {
    io.stderr.write(`${file} already exists: choose a new name (a backup never overwrites a file).\n`);
    return 1;
  }
  const partial = `${file}.partial`;
  try {
    const manifest = await backupInto(partial, io);
    await rename(partial, file);
    const size = (await stat(file)).size;
    io.stdout.write(`Backup written to ${file} (${formatSize(size)}): ${describe(manifest)}.\n`);
    for (const note of manifest.notes) io.stdout.write(`${note}\n`);
    return 0;
  } catch (error) {
    await rm(partial, { force: true });
    io.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function backupInto(partial: string, io: CommandIo): Promise<BackupManifest> {
  const { config } = io;
  const localStorageRoot = config.storage.driver === 'local' ? config.storage.root : undefined;
  if (!config.databaseUrl) {
    const out = createWriteStream(partial, { flags: 'wx' });
    if (await requestBackup(config.dataDir, out)) return readBackupManifest(partial);
    out.destroy();
    await rm(partial, { force: true });
    const dbDir = path.join(config.dataDir, 'db');
    if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new Error(`There is no Encore data in ${config.dataDir} (DATA_DIR).`);
    let database: Database;
    try {
      database = await openDatabase({ url: undefined, pgliteDir: dbDir, pgliteCacheMb: config.embeddedDbCacheMb });
    } catch (error) {
      if (error instanceof EmbeddedDatabaseInUseError)
        throw new Error(`${error.message} The running Encore did not answer on ${config.dataDir}/control.sock: see its log.`, { cause: error });
      throw error;
    }
    try {
      return await writeBackup({ dataDir: config.dataDir, database, localStorageRoot }, createWriteStream(partial, { flags: 'wx' }));
    } finally {
      await database.close();
    }
  }
  // PostgreSQL: the database is backed up by its own tools; this archive holds the rest.
  return writeBackup({ dataDir: config.dataDir, database: { driver: 'postgres' }, localStorageRoot }, createWriteStream(partial, { flags: 'wx' }));
}

/** `restore <file>`: the archive into an empty DATA_DIR; the database is opened once to prove it (and to migrate it). */
export async function runRestoreCommand(args: string[], io: CommandIo): Promise<number> {
  const [source, ...rest] = args;
  if (!source || rest.length > 0 || source.startsWith('-')) {
    io.stderr.write(`${RESTORE_USAGE}\n`);
    return 2;
  }
  const file = path.resolve(io.cwd, source);
  if (!existsSync(file)) {
    io.stderr.write(`${file} does not exist.\n`);
    return 1;
  }
  const { config } = io;
  try {
    const { manifest, files } = await restoreBackup(file, config.dataDir);
    if (manifest.covers.database && !config.databaseUrl) {
      const database = await openDatabase({ url: undefined, pgliteDir: path.join(config.dataDir, 'db') });
      await database.check();
      await database.close();
    }
    io.stdout.write(`Restored ${describe(manifest)} (${files} files) from ${file} into ${config.dataDir}.\n`);
    if (manifest.covers.database && config.databaseUrl)
      io.stdout.write('This backup holds the embedded database, but DATABASE_URL is set: unset it to use the restored database.\n');
    if (!manifest.covers.database) io.stdout.write('This backup holds no database: restore your PostgreSQL dump (pg_restore) before starting Encore.\n');
    if (!manifest.covers.storage) io.stdout.write('This backup holds no stored files: they are in your S3 bucket.\n');
    return 0;
  } catch (error) {
    const message = error instanceof RestoreError || error instanceof Error ? error.message : String(error);
    io.stderr.write(`Restore failed: ${message}\n`);
    return 1;
  }
}

function describe(manifest: BackupManifest): string {
  const parts = [
    ...(manifest.covers.database ? ['the embedded database'] : []),
    ...(manifest.covers.storage ? ['the stored files'] : []),
    ...(manifest.covers.secrets ? ['the secret'] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'nothing but this note';
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}
