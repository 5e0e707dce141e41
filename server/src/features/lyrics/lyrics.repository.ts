import { and, eq, inArray, sql } from 'drizzle-orm';
import { parseId } from '@encore/common/input.rules';
import type { LyricsDocument } from '@encore/common/lyrics-document.rules';
import type { LyricsSource } from '@encore/common/lyrics.contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/pg-errors.js';
import { lyrics, lyricsEmbeddedScans, lyricsTranscriptions } from './lyrics.schema.js';

export type LyricsRow = typeof lyrics.$inferSelect;

export interface StoredLyrics {
  document: LyricsDocument;
  source: LyricsSource;
  language: string | null;
  updatedAt: Date;
}

const isId = (id: number) => parseId(id) !== undefined;

/** The only code of the lyrics feature that touches the database. */
export class LyricsRepository {
  constructor(private readonly db: Db) {}

  async find(songId: number): Promise<StoredLyrics | undefined> {
    if (!isId(songId)) return undefined;
    const [row] = await this.db.select().from(lyrics).where(eq(lyrics.songId, songId));
    return row && toStored(row);
  }

  /**
   * Writes the song's lyrics in one statement; the database mirrors the text into
   * `songs.transcript` in the same transaction (migration 0014's trigger), so a crash leaves the
   * old lyrics or the new ones, never half. `onlyIf` guards a write that must not overwrite
   * lyrics that appeared meanwhile ('absent': no row, or one its uploader emptied, as
   * `LyricsService` counts them); false when it did not write, or when the song is gone (its
   * foreign key). Of 'absent' writers at once only the first writes: the others wait on its
   * row in the primary key, then find its text in the conflict's condition.
   */
  async save(
    songId: number,
    values: { document: LyricsDocument; source: LyricsSource; language: string | null; updatedBy: number | null },
    onlyIf?: 'absent',
  ): Promise<boolean> {
    if (!isId(songId)) return false;
    const row = {
      text: values.document.text,
      lineTimes: values.document.lineTimes,
      words: values.document.words,
      source: values.source,
      language: values.language,
      updatedBy: values.updatedBy,
      updatedAt: new Date(),
    };
    try {
      const written = await this.db
        .insert(lyrics)
        .values({ songId, ...row })
        .onConflictDoUpdate({ target: lyrics.songId, set: row, ...(onlyIf === 'absent' ? { setWhere: eq(lyrics.text, '') } : {}) })
        .returning({ songId: lyrics.songId });
      return written.length > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  // --- transcriptions: one claim per song, naming the task that holds it ---

  /** The task named by the song's transcription claim, live or not. */
  async transcriptionClaim(songId: number): Promise<string | undefined> {
    if (!isId(songId)) return undefined;
    const [row] = await this.db.select({ taskId: lyricsTranscriptions.taskId }).from(lyricsTranscriptions).where(eq(lyricsTranscriptions.songId, songId));
    return row?.taskId;
  }

  /** Claims a song nobody claimed; false when a claim is there (the primary key decides between callers at once). */
  async insertTranscriptionClaim(songId: number, taskId: string): Promise<boolean> {
    const rows = await this.db.insert(lyricsTranscriptions).values({ songId, taskId }).onConflictDoNothing().returning({ taskId: lyricsTranscriptions.taskId });
    return rows.length > 0;
  }

  /** Hands the claim from `holder` to `taskId` if `holder` still has it: of takers at once, one wins. */
  async replaceTranscriptionClaim(songId: number, holder: string, taskId: string): Promise<boolean> {
    const rows = await this.db
      .update(lyricsTranscriptions)
      .set({ taskId, createdAt: new Date() })
      .where(and(eq(lyricsTranscriptions.songId, songId), eq(lyricsTranscriptions.taskId, holder)))
      .returning({ taskId: lyricsTranscriptions.taskId });
    return rows.length > 0;
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

  /** Many songs read and found without embedded lyrics, in one statement (a music folder's scan adds thousands). */
  async markScannedWithout(songIds: readonly number[]): Promise<void> {
    if (songIds.length === 0) return;
    await this.db
      .insert(lyricsEmbeddedScans)
      .values(songIds.map((songId) => ({ songId, found: 'none' as const })))
      .onConflictDoUpdate({ target: lyricsEmbeddedScans.songId, set: { found: 'none', scannedAt: new Date() } })
      .catch(async (error: unknown) => {
        // A song deleted meanwhile fails the whole statement: the others one by one.
        if (!isForeignKeyViolation(error)) throw error;
        for (const songId of songIds) await this.markScanned(songId, 'none');
      });
  }

  /** Those of these songs that were read for embedded lyrics. */
  async scannedAmong(songIds: readonly number[]): Promise<Set<number>> {
    if (songIds.length === 0) return new Set();
    const rows = await this.db
      .select({ songId: lyricsEmbeddedScans.songId })
      .from(lyricsEmbeddedScans)
      .where(inArray(lyricsEmbeddedScans.songId, [...songIds]));
    return new Set(rows.map((row) => row.songId));
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
