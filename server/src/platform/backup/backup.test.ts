import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local.storage.js';
import { MountedStorage } from '../storage/mounted.storage.js';
import { writeBackup } from './backup.js';

const run = promisify(execFile);

/**
 * The storage half of a backup's consistency: a file the database snapshot names must still be
 * there when the files are linked, so deletes wait while the snapshot is taken.
 */
describe('backup of the stored files', () => {
  let dir: string;
  let storage: MountedStorage;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'encore-backup-unit-'));
    const logger = pino({ level: 'silent' });
    const local = await LocalStorage.create({ root: path.join(dir, 'media'), signingSecret: 'x'.repeat(32), maxUploadBytes: 1e6, logger });
    storage = new MountedStorage(local, { signingSecret: 'x'.repeat(32), logger });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('holds deletes (and moves) until the snapshot is taken, then lets them go', async () => {
    await storage.put('songs/1/a.mp3', Buffer.from('song a'));
    await storage.put('songs/2/b.mp3', Buffer.from('song b'));
    const release = storage.holdDeletes();
    let deleted = false;
    let moved = false;
    const deleting = storage.delete('songs/1/a.mp3').then(() => (deleted = true));
    const moving = storage.move('songs/2/b.mp3', 'songs/3/b.mp3').then(() => (moved = true));
    // Unheld work of the same kind (a put and a delete straight on the driver) runs to its end
    // meanwhile; the held delete and move have not.
    for (let i = 0; i < 5; i += 1) {
      await storage.primary.put(`songs/9/reference-${i}.mp3`, Buffer.from('reference'));
      await storage.primary.delete(`songs/9/reference-${i}.mp3`);
    }
    expect(deleted).toBe(false);
    expect(moved).toBe(false);
    expect(existsSync(path.join(dir, 'media/songs/1/a.mp3'))).toBe(true);
    release();
    await Promise.all([deleting, moving]);
    expect(existsSync(path.join(dir, 'media/songs/1/a.mp3'))).toBe(false);
    expect(await storage.stat('songs/3/b.mp3')).toMatchObject({ size: 6 });
  });

  it('archives the files present at the snapshot though one is deleted while the archive is written', async () => {
    await storage.put('songs/4/c.mp3', Buffer.from('song c'));
    let deleteDuringSnapshot: Promise<void> | undefined;
    const file = path.join(dir, 'backup.tar.gz');
    await writeBackup(
      {
        dataDir: dir,
        localStorageRoot: path.join(dir, 'media'),
        // A delete asked for while the snapshot is taken (the song's row is in the snapshot).
        database: {
          driver: 'pglite',
          snapshot: async () => {
            deleteDuringSnapshot = storage.delete('songs/4/c.mp3');
            // The snapshot takes a while: unheld storage work runs to its end meanwhile.
            for (let i = 0; i < 5; i += 1) {
              await storage.primary.put(`songs/9/reference-${i}.mp3`, Buffer.from('reference'));
              await storage.primary.delete(`songs/9/reference-${i}.mp3`);
            }
            return new Blob([Buffer.alloc(1024)]);
          },
        },
        holdDeletes: () => storage.holdDeletes(),
      },
      createWriteStream(file),
    );
    await deleteDuringSnapshot;
    expect(existsSync(path.join(dir, 'media/songs/4/c.mp3'))).toBe(false);
    const { stdout } = await run('tar', ['-tzf', file]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['encore-backup.json', 'database.tar', 'media/songs/4/c.mp3', 'media/songs/3/b.mp3']));
    expect(stdout).not.toContain('.backup-');
    expect((await run('tar', ['-xzOf', file, 'media/songs/4/c.mp3'])).stdout).toBe('song c');
  });
});
