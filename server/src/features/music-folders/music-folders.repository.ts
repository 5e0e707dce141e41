import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { ScanProblem, ScanStatus, ScanTrigger } from '@encore/common/music-folders.contract';
import type { Db } from '../../platform/db/database.js';
import { musicFolderFiles, musicFolderPlaylists, musicFolderScan } from './music-folders.schema.js';

export type FolderFileRow = typeof musicFolderFiles.$inferSelect;
export type NewFolderFile = typeof musicFolderFiles.$inferInsert;
export type FolderPlaylistRow = typeof musicFolderPlaylists.$inferSelect;

/** What a scan compares a found file with: no more than a stat tells. */
export type KnownFile = Pick<
  FolderFileRow,
  'id' | 'path' | 'size' | 'mtimeMs' | 'songId' | 'problem' | 'missingSince' | 'fingerprint' | 'storageKey' | 'coverPath' | 'lrcMtimeMs'
>;

export const SCAN_COUNTS = ['total', 'done', 'added', 'updated', 'moved', 'missing', 'failed'] as const;
export type ScanCounts = Record<(typeof SCAN_COUNTS)[number], number>;

export const emptyCounts = (): ScanCounts => ({ total: 0, done: 0, added: 0, updated: 0, moved: 0, missing: 0, failed: 0 });

const BATCH = 1000;
const STATUS_ID = 1;

/** The only code of the music-folders module that touches the database. */
export class MusicFoldersRepository {
  constructor(private readonly db: Db) {}

  /** Every file row of a folder (a 50,000-file folder is a few MB of these). */
  async filesOf(folder: string): Promise<KnownFile[]> {
    return this.db
      .select({
        id: musicFolderFiles.id,
        path: musicFolderFiles.path,
        size: musicFolderFiles.size,
        mtimeMs: musicFolderFiles.mtimeMs,
        songId: musicFolderFiles.songId,
        problem: musicFolderFiles.problem,
        missingSince: musicFolderFiles.missingSince,
        fingerprint: musicFolderFiles.fingerprint,
        storageKey: musicFolderFiles.storageKey,
        coverPath: musicFolderFiles.coverPath,
        lrcMtimeMs: musicFolderFiles.lrcMtimeMs,
      })
      .from(musicFolderFiles)
      .where(eq(musicFolderFiles.folder, folder));
  }

  /** The folders that have file rows (a folder dropped from MUSIC_FOLDERS still has its rows). */
  async foldersWithFiles(): Promise<string[]> {
    const rows = await this.db.selectDistinct({ folder: musicFolderFiles.folder }).from(musicFolderFiles);
    return rows.map((row) => row.folder);
  }

  /** The songs of the files at these places (present files that are songs), by `folder\0path`. */
  async songsAt(places: readonly { folder: string; path: string }[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const byFolder = new Map<string, string[]>();
    for (const place of places) byFolder.set(place.folder, [...(byFolder.get(place.folder) ?? []), place.path]);
    for (const [folder, paths] of byFolder) {
      for (let start = 0; start < paths.length; start += BATCH) {
        const rows = await this.db
          .select({ path: musicFolderFiles.path, songId: musicFolderFiles.songId })
          .from(musicFolderFiles)
          .where(
            and(
              eq(musicFolderFiles.folder, folder),
              inArray(musicFolderFiles.path, paths.slice(start, start + BATCH)),
              isNotNull(musicFolderFiles.songId),
              isNull(musicFolderFiles.missingSince),
            ),
          );
        for (const row of rows) if (row.songId !== null) found.set(`${folder}\u0000${row.path}`, row.songId);
      }
    }
    return found;
  }

  /** The songs a folder holds now (files that are songs and are there). */
  async songCount(folder: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(musicFolderFiles)
      .where(and(eq(musicFolderFiles.folder, folder), isNotNull(musicFolderFiles.songId), isNull(musicFolderFiles.missingSince)));
    return row?.n ?? 0;
  }

  /** Missing files with one of these fingerprints, in any folder: where a moved file came from. */
  async missingByFingerprint(fingerprints: readonly string[]): Promise<FolderFileRow[]> {
    const rows: FolderFileRow[] = [];
    for (let start = 0; start < fingerprints.length; start += BATCH) {
      const part = fingerprints.slice(start, start + BATCH);
      rows.push(
        ...(await this.db
          .select()
          .from(musicFolderFiles)
          .where(and(inArray(musicFolderFiles.fingerprint, [...part]), isNotNull(musicFolderFiles.missingSince)))),
      );
    }
    return rows;
  }

  async insertFiles(rows: readonly NewFolderFile[]): Promise<void> {
    for (let start = 0; start < rows.length; start += BATCH) {
      const part = rows.slice(start, start + BATCH);
      await this.db
        .insert(musicFolderFiles)
        .values([...part])
        .onConflictDoUpdate({
          target: [musicFolderFiles.folder, musicFolderFiles.path],
          set: {
            storageKey: sql`excluded.storage_key`,
            size: sql`excluded.size`,
            mtimeMs: sql`excluded.mtime_ms`,
            fingerprint: sql`excluded.fingerprint`,
            contentType: sql`excluded.content_type`,
            songId: sql`excluded.song_id`,
            problem: sql`excluded.problem`,
            missingSince: sql`excluded.missing_since`,
            coverPath: sql`excluded.cover_path`,
            lrcMtimeMs: sql`excluded.lrc_mtime_ms`,
          },
        });
    }
  }

  /** Each file row (by its storage key) gets the song made of it, a thousand in one statement. */
  async linkSongs(links: readonly { storageKey: string; songId: number }[]): Promise<void> {
    for (let start = 0; start < links.length; start += BATCH) {
      const part = links.slice(start, start + BATCH);
      await this.db.execute(sql`
        update ${musicFolderFiles} set song_id = link.song_id
        from jsonb_to_recordset(${JSON.stringify(part.map((link) => ({ storage_key: link.storageKey, song_id: link.songId })))}::jsonb)
          as link(storage_key text, song_id integer)
        where ${musicFolderFiles.storageKey} = link.storage_key`);
    }
  }

  async updateFile(id: number, values: Partial<NewFolderFile>): Promise<void> {
    await this.db.update(musicFolderFiles).set(values).where(eq(musicFolderFiles.id, id));
  }

  async deleteFiles(ids: readonly number[]): Promise<void> {
    for (let start = 0; start < ids.length; start += BATCH) {
      await this.db.delete(musicFolderFiles).where(inArray(musicFolderFiles.id, [...ids.slice(start, start + BATCH)]));
    }
  }

  async markMissing(ids: readonly number[], since: Date | null): Promise<void> {
    for (let start = 0; start < ids.length; start += BATCH) {
      await this.db
        .update(musicFolderFiles)
        .set({ missingSince: since })
        .where(inArray(musicFolderFiles.id, [...ids.slice(start, start + BATCH)]));
    }
  }

  /** Files missing since before `before`: their grace period is over. */
  async expired(before: Date): Promise<Pick<FolderFileRow, 'id' | 'songId'>[]> {
    return this.db.select({ id: musicFolderFiles.id, songId: musicFolderFiles.songId }).from(musicFolderFiles).where(lt(musicFolderFiles.missingSince, before));
  }

  /** Where the file under a storage key is, for the storage mount (missing files resolve to nothing). */
  async locate(storageKey: string): Promise<Pick<FolderFileRow, 'folder' | 'path' | 'contentType' | 'size' | 'mtimeMs'> | undefined> {
    const [row] = await this.db
      .select({
        folder: musicFolderFiles.folder,
        path: musicFolderFiles.path,
        contentType: musicFolderFiles.contentType,
        size: musicFolderFiles.size,
        mtimeMs: musicFolderFiles.mtimeMs,
      })
      .from(musicFolderFiles)
      .where(and(eq(musicFolderFiles.storageKey, storageKey), isNull(musicFolderFiles.missingSince)));
    return row;
  }

  /** Files that are not songs, with the reason, present ones only, the first `limit`, and how many in all. */
  async problems(limit: number): Promise<{ problems: ScanProblem[]; total: number }> {
    const where = and(isNotNull(musicFolderFiles.problem), isNull(musicFolderFiles.missingSince));
    const rows = await this.db
      .select({ folder: musicFolderFiles.folder, path: musicFolderFiles.path, reason: musicFolderFiles.problem })
      .from(musicFolderFiles)
      .where(where)
      .orderBy(musicFolderFiles.folder, musicFolderFiles.path)
      .limit(limit);
    const [counted] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(musicFolderFiles)
      .where(where);
    return { problems: rows.map((row) => ({ folder: row.folder, path: row.path, reason: row.reason ?? '' })), total: counted?.n ?? 0 };
  }

  // The scanner's row: lease, status and requests.

  /**
   * Takes or renews the lease for `holder` until `until`: true when it is now this holder's (it
   * was free, expired or already its own). One statement, so two processes never both win.
   */
  async lease(holder: string, until: Date, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(musicFolderScan)
      .set({ holder, leaseUntil: until })
      .where(
        and(eq(musicFolderScan.id, STATUS_ID), or(isNull(musicFolderScan.holder), eq(musicFolderScan.holder, holder), lt(musicFolderScan.leaseUntil, now))),
      )
      .returning({ id: musicFolderScan.id });
    return rows.length > 0;
  }

  async release(holder: string): Promise<void> {
    await this.db
      .update(musicFolderScan)
      .set({ holder: null, leaseUntil: null })
      .where(and(eq(musicFolderScan.id, STATUS_ID), eq(musicFolderScan.holder, holder)));
  }

  async status(): Promise<ScanStatus & { problems: ScanProblem[]; requestedAt: Date | null }> {
    const [row] = await this.db.select().from(musicFolderScan).where(eq(musicFolderScan.id, STATUS_ID));
    const counts = { ...emptyCounts(), ...(row?.counts ?? {}) };
    const state = row?.state;
    return {
      state: state === 'running' || state === 'done' || state === 'failed' ? state : 'idle',
      trigger: (row?.trigger as ScanTrigger | null | undefined) ?? null,
      startedAt: row?.startedAt?.toISOString() ?? null,
      finishedAt: row?.finishedAt?.toISOString() ?? null,
      ...counts,
      error: row?.error ?? null,
      problems: row?.problems ?? [],
      requestedAt: row?.requestedAt ?? null,
    };
  }

  async started(trigger: ScanTrigger, at: Date): Promise<void> {
    await this.db
      .update(musicFolderScan)
      .set({ state: 'running', trigger, startedAt: at, finishedAt: null, counts: emptyCounts(), error: null, requestedAt: null })
      .where(eq(musicFolderScan.id, STATUS_ID));
  }

  async progress(counts: ScanCounts): Promise<void> {
    await this.db.update(musicFolderScan).set({ counts }).where(eq(musicFolderScan.id, STATUS_ID));
  }

  async finished(counts: ScanCounts, problems: ScanProblem[], error: string | null, at: Date): Promise<void> {
    await this.db
      .update(musicFolderScan)
      .set({ state: error === null ? 'done' : 'failed', counts, problems, error, finishedAt: at })
      .where(eq(musicFolderScan.id, STATUS_ID));
  }

  /** A scan asked for (Scan now) that the lease holder picks up. */
  async request(at: Date): Promise<void> {
    await this.db.update(musicFolderScan).set({ requestedAt: at }).where(eq(musicFolderScan.id, STATUS_ID));
  }

  // Playlists found in the folders.

  async playlistsOf(folder: string): Promise<FolderPlaylistRow[]> {
    return this.db.select().from(musicFolderPlaylists).where(eq(musicFolderPlaylists.folder, folder));
  }

  async savePlaylist(values: typeof musicFolderPlaylists.$inferInsert): Promise<void> {
    await this.db
      .insert(musicFolderPlaylists)
      .values(values)
      .onConflictDoUpdate({
        target: [musicFolderPlaylists.folder, musicFolderPlaylists.path],
        set: { mtimeMs: values.mtimeMs, size: values.size, playlistId: values.playlistId ?? null, missing: values.missing ?? [] },
      });
  }
}
