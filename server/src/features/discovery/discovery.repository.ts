import { and, count, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/pg-errors.js';
import { catalogVersion, songAnalyses, type PlaybackLoudness } from './discovery.schema.js';

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

/** A song's features as ranking reads them, before its tags are joined to them (candidates.ts). */
export interface AnalysedSong {
  songId: number;
  features: SongFeatures;
  vector: number[];
}

export interface AnalysisCounts {
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
    const rows = await this.db
      .select()
      .from(songAnalyses)
      .where(sql`${songAnalyses.songId} in ${songIds}`);
    return new Map(rows.map((row) => [row.songId, row]));
  }

  /** Upsert: a re-analysis replaces the row. A song deleted meanwhile is not an error. */
  async saveAnalysis(values: typeof songAnalyses.$inferInsert): Promise<void> {
    await this.db
      .insert(songAnalyses)
      .values(values)
      .onConflictDoUpdate({
        target: songAnalyses.songId,
        set: {
          status: values.status,
          features: values.features,
          vector: values.vector,
          reason: values.reason,
          loudness: values.loudness ?? null,
          analyserVersion: values.analyserVersion,
          analysedAt: new Date(),
        },
      })
      .catch((error: unknown) => {
        // The song is gone (its foreign key): nothing to keep.
        if (!isForeignKeyViolation(error)) throw error;
      });
  }

  /** Those of these songs analysed (or failed) by analyser `version` or a later one: the backfill passes them by. */
  async currentAmong(songIds: readonly number[], version: number): Promise<Set<number>> {
    if (songIds.length === 0) return new Set();
    const rows = await this.db
      .select({ songId: songAnalyses.songId })
      .from(songAnalyses)
      .where(and(inArray(songAnalyses.songId, [...songIds]), gte(songAnalyses.analyserVersion, version)));
    return new Set(rows.map((row) => row.songId));
  }

  /** The playback loudness of a song analysed before it was measured (its features are left as they are). */
  async saveLoudness(songId: number, loudness: PlaybackLoudness): Promise<void> {
    await this.db.update(songAnalyses).set({ loudness }).where(eq(songAnalyses.songId, songId));
  }

  /** Those of these songs analysed (not failed) whose playback loudness was never measured. */
  async withoutLoudness(songIds: readonly number[]): Promise<number[]> {
    if (songIds.length === 0) return [];
    const rows = await this.db
      .select({ songId: songAnalyses.songId })
      .from(songAnalyses)
      .where(and(inArray(songAnalyses.songId, [...songIds]), eq(songAnalyses.status, 'analysed'), isNull(songAnalyses.loudness)))
      .orderBy(songAnalyses.songId);
    return rows.map((row) => row.songId);
  }

  /** The measured playback loudness of those of these songs that have one (failed measurements included). */
  async loudnessOf(songIds: readonly number[]): Promise<Map<number, PlaybackLoudness>> {
    if (songIds.length === 0) return new Map();
    const rows = await this.db
      .select({ songId: songAnalyses.songId, loudness: songAnalyses.loudness })
      .from(songAnalyses)
      .where(and(inArray(songAnalyses.songId, [...songIds]), isNotNull(songAnalyses.loudness)));
    return new Map(rows.flatMap((row) => (row.loudness ? [[row.songId, row.loudness] as const] : [])));
  }

  /** Songs with an outcome, failed ones included; the songs' total is the library's. */
  async counts(): Promise<AnalysisCounts> {
    const rows = await this.db.select({ status: songAnalyses.status, n: count() }).from(songAnalyses).groupBy(songAnalyses.status);
    const by = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
    return { analysed: by('analysed') + by('failed'), failed: by('failed') };
  }

  /** Goes up with every change to songs or their analyses (migration 0010's triggers). */
  async catalogVersion(): Promise<number> {
    const [row] = await this.db.select({ version: catalogVersion.version }).from(catalogVersion).where(eq(catalogVersion.id, 1));
    return row?.version ?? -1;
  }

  /** Every analysed song's features and vector. */
  async analysedSongs(): Promise<AnalysedSong[]> {
    const rows = await this.db
      .select({ songId: songAnalyses.songId, features: songAnalyses.features, vector: songAnalyses.vector })
      .from(songAnalyses)
      .where(eq(songAnalyses.status, 'analysed'));
    return rows.map((row) => ({ songId: row.songId, features: row.features as SongFeatures, vector: row.vector as number[] }));
  }
}
