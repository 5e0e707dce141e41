import { and, asc, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/pg-errors.js';
import { songs } from '../library/library.schema.js';
import { playlistSongs, playlists } from '../playlists/playlists.schema.js';
import { catalogVersion, songAnalyses } from './discovery.schema.js';

export type AnalysisRow = typeof songAnalyses.$inferSelect;

/** What the ranker reads of an analysed song: its tags, a slice of its lyrics and its features. */
export interface Candidate {
  id: number;
  displayName: string;
  title: string | null;
  artist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  durationSeconds: number | null;
  transcript: string | null;
  features: SongFeatures;
  vector: number[];
}

export interface AnalysisCounts {
  total: number;
  analysed: number;
  failed: number;
}

/** The only code of discovery that touches the database. */
export class DiscoveryRepository {
  constructor(private readonly db: Db) {}

  async findAnalysis(songId: number): Promise<AnalysisRow | undefined> {
    const [row] = await this.db.select().from(songAnalyses).where(eq(songAnalyses.songId, songId));
    return row;
  }

  async findAnalyses(songIds: number[]): Promise<Map<number, AnalysisRow>> {
    if (songIds.length === 0) return new Map();
    const rows = await this.db.select().from(songAnalyses).where(sql`${songAnalyses.songId} in ${songIds}`);
    return new Map(rows.map((row) => [row.songId, row]));
  }

  /** Upsert: a re-analysis replaces the row. A song deleted meanwhile is not an error. */
  async saveAnalysis(values: typeof songAnalyses.$inferInsert): Promise<void> {
    const [song] = await this.db.select({ id: songs.id }).from(songs).where(eq(songs.id, values.songId));
    if (!song) return;
    await this.db
      .insert(songAnalyses)
      .values(values)
      .onConflictDoUpdate({
        target: songAnalyses.songId,
        set: { status: values.status, features: values.features, vector: values.vector, reason: values.reason, analyserVersion: values.analyserVersion, analysedAt: new Date() },
      })
      .catch((error: unknown) => {
        // The song was deleted between the check and the insert (foreign key): nothing to keep.
        if (!isForeignKeyViolation(error)) throw error;
      });
  }

  /** Songs without a current analysis, in id order after `afterId` (the backfill's cursor). */
  async pendingSongIds(version: number, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: songs.id })
      .from(songs)
      .leftJoin(songAnalyses, eq(songAnalyses.songId, songs.id))
      .where(and(gt(songs.id, afterId), or(isNull(songAnalyses.songId), lt(songAnalyses.analyserVersion, version))))
      .orderBy(asc(songs.id))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async counts(): Promise<AnalysisCounts> {
    const [total] = await this.db.select({ n: count() }).from(songs);
    const rows = await this.db.select({ status: songAnalyses.status, n: count() }).from(songAnalyses).groupBy(songAnalyses.status);
    const by = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
    return { total: total?.n ?? 0, analysed: by('analysed') + by('failed'), failed: by('failed') };
  }

  /** Goes up with every change to songs or their analyses (migration 0010's triggers). */
  async catalogVersion(): Promise<number> {
    const [row] = await this.db.select({ version: catalogVersion.version }).from(catalogVersion).where(eq(catalogVersion.id, 1));
    return row?.version ?? -1;
  }

  /** Every analysed song with what ranking needs (lyrics cut to 2,000 characters). */
  async candidates(): Promise<Candidate[]> {
    const rows = await this.db
      .select({
        id: songs.id,
        displayName: songs.displayName,
        title: songs.title,
        artist: songs.artist,
        album: songs.album,
        genre: songs.genre,
        year: songs.year,
        durationSeconds: songs.durationSeconds,
        transcript: sql<string | null>`left(${songs.transcript}, 2000)`,
        features: songAnalyses.features,
        vector: songAnalyses.vector,
      })
      .from(songAnalyses)
      .innerJoin(songs, eq(songs.id, songAnalyses.songId))
      .where(eq(songAnalyses.status, 'analysed'));
    return rows.map((row) => ({ ...row, features: row.features as SongFeatures, vector: row.vector as number[] }));
  }

  /** Creates the AI playlist with its songs in order, in one transaction. */
  async createAiPlaylist(ownerId: number, values: { name: string; description: string; prompt: string; songIds: number[] }): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(playlists).values({ ownerId, name: values.name, description: values.description, aiPrompt: values.prompt }).returning({ id: playlists.id });
      const id = row!.id;
      // A song deleted since ranking would break the foreign key: keep only those still there.
      const present = values.songIds.length === 0 ? [] : await tx.select({ id: songs.id }).from(songs).where(sql`${songs.id} in ${values.songIds}`);
      const keep = new Set(present.map((song) => song.id));
      const ordered = values.songIds.filter((songId) => keep.has(songId));
      if (ordered.length > 0) await tx.insert(playlistSongs).values(ordered.map((songId, position) => ({ playlistId: id, songId, position })));
      return id;
    });
  }
}

