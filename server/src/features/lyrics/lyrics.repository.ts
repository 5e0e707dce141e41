import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { parseId } from '@encore/common/input.rules';
import type { LyricsDocument } from '@encore/common/lyrics-document.rules';
import type { LyricsSource } from '@encore/common/lyrics.contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/pg-errors.js';
import { tasks } from '../../platform/tasks/tasks.schema.js';
import { songs } from '../library/library.schema.js';
import { lyrics, lyricsEmbeddedScans, lyricsTranscriptions } from './lyrics.schema.js';

export type LyricsRow = typeof lyrics.$inferSelect;

/** What the lyrics feature needs to know of a song. */
export interface LyricsSong {
  id: number;
  ownerId: number;
  displayName: string;
  fileName: string;
  fileType: string;
  storageKey: string;
  title: string | null;
  artist: string | null;
  album: string | null;
  durationSeconds: number | null;
  /** `songs.transcript`: lyrics from before the lyrics table (or written by the library at ingest). */
  transcript: string | null;
}

export interface StoredLyrics {
  document: LyricsDocument;
  source: LyricsSource;
  language: string | null;
  updatedAt: Date;
}

const isId = (id: number) => parseId(id) !== undefined;
const LIVE_TASK_STATES = ['queued', 'running'] as const;

/** The only code of the lyrics feature that touches the database. */
export class LyricsRepository {
  constructor(private readonly db: Db) {}

  async findSong(id: number): Promise<LyricsSong | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db
      .select({
        id: songs.id,
        ownerId: songs.ownerId,
        displayName: songs.displayName,
        fileName: songs.fileName,
        fileType: songs.fileType,
        storageKey: songs.storageKey,
        title: songs.title,
        artist: songs.artist,
        album: songs.album,
        durationSeconds: songs.durationSeconds,
        transcript: songs.transcript,
      })
      .from(songs)
      .where(eq(songs.id, id));
    return row;
  }

  async findSongIdByStorageKey(storageKey: string): Promise<number | undefined> {
    const [row] = await this.db.select({ id: songs.id }).from(songs).where(eq(songs.storageKey, storageKey));
    return row?.id;
  }

  async find(songId: number): Promise<StoredLyrics | undefined> {
    if (!isId(songId)) return undefined;
    const [row] = await this.db.select().from(lyrics).where(eq(lyrics.songId, songId));
    return row && toStored(row);
  }

  /**
   * Writes the song's lyrics and mirrors the text into `songs.transcript`, in one transaction:
   * a crash leaves the old lyrics or the new ones, never half. `onlyIf` guards a write that
   * must not overwrite lyrics that appeared meanwhile ('absent': no row, or one its uploader
   * emptied, as `LyricsService` counts them); false when it did not write. The song row is
   * locked (FOR UPDATE) before the check, so of writers at once only the first finds none.
   */
  async save(songId: number, values: { document: LyricsDocument; source: LyricsSource; language: string | null; updatedBy: number | null }, onlyIf?: 'absent'): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [song] = await tx.select({ id: songs.id }).from(songs).where(eq(songs.id, songId)).for('update');
      if (!song) return false;
      if (onlyIf === 'absent') {
        const [existing] = await tx.select({ songId: lyrics.songId }).from(lyrics).where(and(eq(lyrics.songId, songId), ne(lyrics.text, '')));
        if (existing) return false;
      }
      const row = {
        text: values.document.text,
        lineTimes: values.document.lineTimes,
        words: values.document.words,
        source: values.source,
        language: values.language,
        updatedBy: values.updatedBy,
        updatedAt: new Date(),
      };
      await tx
        .insert(lyrics)
        .values({ songId, ...row })
        .onConflictDoUpdate({ target: lyrics.songId, set: row });
      await tx.update(songs).set({ transcript: values.document.text === '' ? null : values.document.text }).where(eq(songs.id, songId));
      return true;
    });
  }

  // --- transcriptions: one live task per song ---

  /** The live transcription task of a song, if any. */
  async liveTranscription(songId: number): Promise<{ taskId: string; ownerId: number } | undefined> {
    const [row] = await this.db
      .select({ taskId: lyricsTranscriptions.taskId, ownerId: tasks.ownerId })
      .from(lyricsTranscriptions)
      .innerJoin(tasks, eq(tasks.id, lyricsTranscriptions.taskId))
      .where(and(eq(lyricsTranscriptions.songId, songId), inArray(tasks.state, [...LIVE_TASK_STATES])));
    return row;
  }

  /**
   * Claims the song's transcription slot for `taskId` unless a live task holds it: the answer
   * is the task that holds it now (ours when we won). A finished task's claim is taken over.
   */
  async claimTranscription(songId: number, taskId: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      await tx.insert(lyricsTranscriptions).values({ songId, taskId }).onConflictDoNothing();
      const [row] = await tx
        .select({ taskId: lyricsTranscriptions.taskId, state: tasks.state })
        .from(lyricsTranscriptions)
        .innerJoin(tasks, eq(tasks.id, lyricsTranscriptions.taskId))
        .where(eq(lyricsTranscriptions.songId, songId))
        .for('update', { of: lyricsTranscriptions });
      if (!row) return taskId;
      if (row.taskId === taskId) return taskId;
      if ((LIVE_TASK_STATES as readonly string[]).includes(row.state)) return row.taskId;
      await tx.update(lyricsTranscriptions).set({ taskId, createdAt: new Date() }).where(and(eq(lyricsTranscriptions.songId, songId), eq(lyricsTranscriptions.taskId, row.taskId)));
      return taskId;
    });
  }

  /** A task's state, progress, result and error (any owner: the song's transcription is shared). */
  async taskOutcome(taskId: string): Promise<{ state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'; progress: number; phase: string | null; result: unknown; error: string | null } | undefined> {
    const [row] = await this.db
      .select({ state: tasks.state, progress: tasks.progress, phase: tasks.phase, result: tasks.result, error: tasks.error })
      .from(tasks)
      .where(eq(tasks.id, taskId));
    return row;
  }

  // --- embedded lyrics scans ---

  async markScanned(songId: number, found: 'none' | 'plain' | 'synced'): Promise<void> {
    await this.db
      .insert(lyricsEmbeddedScans)
      .values({ songId, found })
      .onConflictDoUpdate({ target: lyricsEmbeddedScans.songId, set: { found, scannedAt: new Date() } })
      .catch((error: unknown) => {
        // The song was deleted meanwhile: nothing to remember.
        if (!isForeignKeyViolation(error)) throw error;
      });
  }

  /** Songs never scanned for embedded lyrics, oldest first. */
  async unscannedSongIds(limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: songs.id })
      .from(songs)
      .leftJoin(lyricsEmbeddedScans, eq(lyricsEmbeddedScans.songId, songs.id))
      .where(isNull(lyricsEmbeddedScans.songId))
      .orderBy(songs.id)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async countLyrics(): Promise<number> {
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(lyrics);
    return row?.count ?? 0;
  }
}

function toStored(row: LyricsRow): StoredLyrics {
  return {
    document: { text: row.text, lineTimes: row.lineTimes ?? null, words: row.words ?? null },
    source: row.source,
    language: row.language,
    updatedAt: row.updatedAt,
  };
}
