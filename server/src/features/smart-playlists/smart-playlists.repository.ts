import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SmartRules } from '@encore/common/smart-playlist.rules';
import type { Db } from '../../platform/db/database.js';
import { smartPlaylistPresets, smartPlaylists } from './smart-playlists.schema.js';
import { matchCountSql, matchingPageSql, matchSummarySql } from './smart-rules.sql.js';

export type SmartPlaylistRow = typeof smartPlaylists.$inferSelect;
export type SmartPlaylistValues = Pick<SmartPlaylistRow, 'name' | 'comment' | 'rules'>;

/** The only code of the smart-playlists feature that touches the database. Every call is owner-scoped. */
export class SmartPlaylistsRepository {
  constructor(private readonly db: Db) {}

  listByOwner(ownerId: number): Promise<SmartPlaylistRow[]> {
    return this.db.select().from(smartPlaylists).where(eq(smartPlaylists.ownerId, ownerId)).orderBy(asc(smartPlaylists.createdAt), asc(smartPlaylists.id));
  }

  async find(id: number, ownerId: number): Promise<SmartPlaylistRow | undefined> {
    const [row] = await this.db
      .select()
      .from(smartPlaylists)
      .where(and(eq(smartPlaylists.id, id), eq(smartPlaylists.ownerId, ownerId)));
    return row;
  }

  async create(ownerId: number, values: SmartPlaylistValues, source: 'user' | 'preset' = 'user'): Promise<SmartPlaylistRow> {
    const [row] = await this.db
      .insert(smartPlaylists)
      .values({ ownerId, source, ...values })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, ownerId: number, values: SmartPlaylistValues): Promise<SmartPlaylistRow | undefined> {
    const [row] = await this.db
      .update(smartPlaylists)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(smartPlaylists.id, id), eq(smartPlaylists.ownerId, ownerId)))
      .returning();
    return row;
  }

  async delete(id: number, ownerId: number): Promise<boolean> {
    const rows = await this.db
      .delete(smartPlaylists)
      .where(and(eq(smartPlaylists.id, id), eq(smartPlaylists.ownerId, ownerId)))
      .returning({ id: smartPlaylists.id });
    return rows.length > 0;
  }

  /**
   * Gives the user the presets once, whoever asks first (two lists at once make them once);
   * false when they were given before (deleted presets stay deleted).
   */
  givePresetsOnce(userId: number, presets: readonly SmartPlaylistValues[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const given = await tx.insert(smartPlaylistPresets).values({ userId }).onConflictDoNothing().returning({ userId: smartPlaylistPresets.userId });
      if (given.length === 0) return false;
      if (presets.length > 0) await tx.insert(smartPlaylists).values(presets.map((preset) => ({ ownerId: userId, source: 'preset' as const, ...preset })));
      return true;
    });
  }

  /** A folder's .nsp file as the owner's smart playlist: made, or its rules replaced; its id. */
  async upsertFolderFile(ownerId: number, folderFile: string, values: SmartPlaylistValues): Promise<number> {
    const [row] = await this.db
      .insert(smartPlaylists)
      .values({ ownerId, source: 'folder', folderFile, ...values })
      .onConflictDoUpdate({ target: smartPlaylists.folderFile, set: { ...values, ownerId, updatedAt: new Date() } })
      .returning({ id: smartPlaylists.id });
    if (!row) throw new Error('upsert returned no row');
    return row.id;
  }

  /** Deletes the smart playlists of folder files no longer there. */
  async deleteFolderFiles(folderFiles: readonly string[]): Promise<void> {
    if (folderFiles.length === 0) return;
    await this.db.delete(smartPlaylists).where(inArray(smartPlaylists.folderFile, [...folderFiles]));
  }

  /** The folder files of a folder's smart playlists (keys `["<folder>","<path>"]`). */
  async folderFilesOf(folder: string): Promise<string[]> {
    const rows = await this.db
      .select({ folderFile: smartPlaylists.folderFile })
      .from(smartPlaylists)
      .where(sql`starts_with(${smartPlaylists.folderFile}, ${`${JSON.stringify([folder]).slice(0, -1)},`}::text)`);
    return rows.flatMap((row) => (row.folderFile ? [row.folderFile] : []));
  }

  /** A page of the song ids the rules match for the viewer, in order, and how many match in all (before the rules' limit). */
  async matchingSongIds(
    rules: SmartRules,
    options: { viewerId: number; offset: number; limit: number; seed: string },
  ): Promise<{ total: number; ids: number[] }> {
    // The rules' limit ends the list: a page past it, or asking for none, only counts.
    const limit = Math.min(options.limit, (rules.limit ?? Number.MAX_SAFE_INTEGER) - options.offset);
    if (limit > 0) {
      const result = (await this.db.execute(matchingPageSql(rules, { ...options, limit }))) as unknown as { rows: { id: number; total: number | string }[] };
      const [first] = result.rows;
      if (first) return { total: Number(first.total), ids: result.rows.map((row) => Number(row.id)) };
    }
    const result = (await this.db.execute(matchCountSql(rules, options.viewerId))) as unknown as { rows: { total: number | string }[] };
    return { total: Number(result.rows[0]?.total ?? 0), ids: [] };
  }

  /** How many songs the rules match for the viewer (after the rules' limit) and their total seconds. */
  async matchSummary(rules: SmartRules, options: { viewerId: number; seed: string }): Promise<{ total: number; seconds: number }> {
    const result = (await this.db.execute(matchSummarySql(rules, options))) as unknown as { rows: { total: number | string; seconds: number | string }[] };
    const [row] = result.rows;
    return { total: Number(row?.total ?? 0), seconds: Number(row?.seconds ?? 0) };
  }
}
