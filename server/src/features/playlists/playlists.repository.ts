import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/pg-errors.js';
import type { AiPlaylistSize, FreshPlaylist } from './playlists.port.js';
import { playlistRemovedSongs, playlistSongs, playlists } from './playlists.schema.js';

export type PlaylistRow = typeof playlists.$inferSelect;
export interface PlaylistEntry {
  playlistId: number;
  songId: number;
}

/** What adding a song did: added it, found it already there, or found no such song (any more). */
export type AddSongResult = 'added' | 'present' | 'no-song';

/** The only code of the playlists feature that touches the database. Every call is owner-scoped. */
export class PlaylistsRepository {
  constructor(private readonly db: Db) {}

  listByOwner(ownerId: number): Promise<PlaylistRow[]> {
    return this.db.select().from(playlists).where(eq(playlists.ownerId, ownerId)).orderBy(asc(playlists.createdAt), asc(playlists.id));
  }

  async find(id: number, ownerId: number): Promise<PlaylistRow | undefined> {
    const [row] = await this.db
      .select()
      .from(playlists)
      .where(and(eq(playlists.id, id), eq(playlists.ownerId, ownerId)));
    return row;
  }

  /** Song ids of the given playlists, each playlist in its own order. */
  entries(playlistIds: number[]): Promise<PlaylistEntry[]> {
    if (playlistIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ playlistId: playlistSongs.playlistId, songId: playlistSongs.songId })
      .from(playlistSongs)
      .where(inArray(playlistSongs.playlistId, playlistIds))
      .orderBy(asc(playlistSongs.playlistId), asc(playlistSongs.position));
  }

  async create(ownerId: number, values: { name: string; description: string | null }): Promise<PlaylistRow> {
    const [row] = await this.db
      .insert(playlists)
      .values({ ownerId, ...values })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, ownerId: number, values: { name: string; description: string | null }): Promise<PlaylistRow | undefined> {
    const [row] = await this.db
      .update(playlists)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(playlists.id, id), eq(playlists.ownerId, ownerId)))
      .returning();
    return row;
  }

  async delete(id: number, ownerId: number): Promise<boolean> {
    const rows = await this.db
      .delete(playlists)
      .where(and(eq(playlists.id, id), eq(playlists.ownerId, ownerId)))
      .returning({ id: playlists.id });
    return rows.length > 0;
  }

  /**
   * Appends a song. The playlist row is locked first, as by `reorder`: two adds at once would
   * otherwise read the same last position. The song's foreign key refuses a song deleted since
   * the caller found it.
   */
  async addSong(playlistId: number, songId: number): Promise<AddSongResult> {
    try {
      return (await this.insertSong(playlistId, songId)) ? 'added' : 'present';
    } catch (error) {
      if (isForeignKeyViolation(error, 'playlist_songs_song_id_songs_id_fk')) return 'no-song';
      throw error;
    }
  }

  private async insertSong(playlistId: number, songId: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockPlaylist(tx, playlistId);
      const rows = await tx
        .insert(playlistSongs)
        .values({
          playlistId,
          songId,
          position: sql`(select coalesce(max(${playlistSongs.position}), 0) + 1 from ${playlistSongs} where ${playlistSongs.playlistId} = ${playlistId})`,
        })
        // Only the song's own key: the position's unique constraint is deferrable, which
        // ON CONFLICT cannot take as an arbiter (and the lock keeps positions apart).
        .onConflictDoNothing({ target: [playlistSongs.playlistId, playlistSongs.songId] })
        .returning({ songId: playlistSongs.songId });
      if (rows.length > 0) await touch(tx, playlistId);
      return rows.length > 0;
    });
  }

  /** Removes a song; from an AI playlist, the removal is kept so that a re-ranking never brings the song back. */
  async removeSong(playlistId: number, songId: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .delete(playlistSongs)
        .where(and(eq(playlistSongs.playlistId, playlistId), eq(playlistSongs.songId, songId)))
        .returning({ songId: playlistSongs.songId });
      if (rows.length === 0) return false;
      await tx.execute(sql`
        insert into ${playlistRemovedSongs} (playlist_id, song_id)
        select ${playlists.id}, ${songId}::int from ${playlists} where ${playlists.id} = ${playlistId} and ${playlists.aiPrompt} is not null
        on conflict do nothing`);
      await touch(tx, playlistId);
      return true;
    });
  }

  async setKeepFresh(id: number, ownerId: number, keepFresh: boolean): Promise<PlaylistRow | undefined> {
    const [row] = await this.db
      .update(playlists)
      .set({ keepFresh })
      .where(and(eq(playlists.id, id), eq(playlists.ownerId, ownerId)))
      .returning();
    return row;
  }

  async freshPlaylistIds(): Promise<number[]> {
    const rows = await this.db
      .select({ id: playlists.id })
      .from(playlists)
      .where(and(eq(playlists.keepFresh, true), isNotNull(playlists.aiSize), isNotNull(playlists.aiPrompt)))
      .orderBy(asc(playlists.id));
    return rows.map((row) => row.id);
  }

  async freshPlaylist(id: number): Promise<FreshPlaylist | undefined> {
    const [row] = await this.db
      .select()
      .from(playlists)
      .where(and(eq(playlists.id, id), eq(playlists.keepFresh, true)));
    if (!row?.aiPrompt || !row.aiSize) return undefined;
    const [handPicked, removed] = await Promise.all([
      this.db
        .select({ songId: playlistSongs.songId })
        .from(playlistSongs)
        .where(and(eq(playlistSongs.playlistId, id), eq(playlistSongs.generated, false)))
        .orderBy(asc(playlistSongs.position)),
      this.db.select({ songId: playlistRemovedSongs.songId }).from(playlistRemovedSongs).where(eq(playlistRemovedSongs.playlistId, id)),
    ]);
    return {
      id,
      ownerId: row.ownerId,
      prompt: row.aiPrompt,
      size: row.aiSize,
      handPicked: handPicked.map((entry) => entry.songId),
      removed: removed.map((entry) => entry.songId),
    };
  }

  /**
   * The ranking's songs of a fresh playlist replaced under the playlist's lock: what the user
   * removed or added by hand is read again there, so a change made while the ranking ran holds.
   */
  async replaceGenerated(id: number, songIds: readonly number[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockPlaylist(tx, id);
      const [row] = await tx
        .select({ id: playlists.id })
        .from(playlists)
        .where(and(eq(playlists.id, id), eq(playlists.keepFresh, true)));
      if (!row) return false;
      const [hand, removed] = await Promise.all([
        tx
          .select({ songId: playlistSongs.songId })
          .from(playlistSongs)
          .where(and(eq(playlistSongs.playlistId, id), eq(playlistSongs.generated, false)))
          .orderBy(asc(playlistSongs.position)),
        tx.select({ songId: playlistRemovedSongs.songId }).from(playlistRemovedSongs).where(eq(playlistRemovedSongs.playlistId, id)),
      ]);
      const handIds = hand.map((entry) => entry.songId);
      const excluded = new Set([...handIds, ...removed.map((entry) => entry.songId)]);
      const ranked = [...new Set(songIds)].filter((songId) => !excluded.has(songId));
      await tx.delete(playlistSongs).where(eq(playlistSongs.playlistId, id));
      const added = await insertInOrder(tx, id, ranked, 0, true);
      await insertInOrder(tx, id, handIds, added.size, false);
      await touch(tx, id);
      return true;
    });
  }

  /**
   * Rewrites the order to exactly `songIds`. The playlist row is locked first so two reorders
   * (or a reorder and an add) cannot interleave; returns false, changing nothing, when the list
   * is not a permutation of the playlist's songs.
   */
  async reorder(playlistId: number, songIds: number[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockPlaylist(tx, playlistId);
      const current = await tx.select({ songId: playlistSongs.songId }).from(playlistSongs).where(eq(playlistSongs.playlistId, playlistId));
      const have = new Set(current.map((row) => row.songId));
      if (have.size !== songIds.length || new Set(songIds).size !== songIds.length || !songIds.every((id) => have.has(id))) return false;
      if (songIds.length > 0) {
        const positions = songIds.map((_, index) => index + 1);
        await tx.execute(sql`
          update ${playlistSongs} set position = ordered.position
          from unnest(${`{${songIds.join(',')}}`}::int[], ${`{${positions.join(',')}}`}::int[]) as ordered(song_id, position)
          where ${playlistSongs.playlistId} = ${playlistId} and ${playlistSongs.songId} = ordered.song_id`);
      }
      await touch(tx, playlistId);
      return true;
    });
  }
  /**
   * Appends the songs of `songIds` (in that order, each once) the playlist does not have yet,
   * after its last song, in one transaction under the playlist's lock. A song deleted since it
   * was found fails its foreign key: the songs are then added one at a time under savepoints
   * and such songs left out. Returns which were added and which the playlist already had.
   */
  async appendSongs(playlistId: number, songIds: readonly number[]): Promise<{ added: Set<number>; present: Set<number> }> {
    return this.db.transaction(async (tx) => {
      await lockPlaylist(tx, playlistId);
      const current = await tx.select({ songId: playlistSongs.songId }).from(playlistSongs).where(eq(playlistSongs.playlistId, playlistId));
      const have = new Set(current.map((row) => row.songId));
      const present = new Set(songIds.filter((id) => have.has(id)));
      const wanted = [...new Set(songIds)].filter((id) => !have.has(id));
      if (wanted.length === 0) return { added: new Set<number>(), present };
      const [last] = await tx
        .select({ position: sql<number | null>`max(${playlistSongs.position})` })
        .from(playlistSongs)
        .where(eq(playlistSongs.playlistId, playlistId));
      const added = await insertInOrder(tx, playlistId, wanted, Number(last?.position ?? 0) + 1);
      if (added.size > 0) await touch(tx, playlistId);
      return { added, present };
    });
  }

  /**
   * A playlist another module made for its owner (an AI playlist), its songs in the given order
   * from position 0, in one transaction. A song deleted since it was chosen fails its foreign
   * key: the songs are then added one at a time, each under a savepoint, and such songs left out.
   */
  async createGenerated(
    ownerId: number,
    values: { name: string; description: string; prompt: string; size?: AiPlaylistSize; songIds: number[] },
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(playlists)
        .values({ ownerId, name: values.name, description: values.description, aiPrompt: values.prompt, aiSize: values.size ?? null })
        .returning({ id: playlists.id });
      const id = row!.id;
      await insertInOrder(tx, id, values.songIds, 0, true);
      return id;
    });
  }

  /**
   * A playlist made from a playlist file: created with its songs, or, when `playlistId` names one
   * of the owner's playlists, its songs replaced by the file's (its name and description, which
   * the owner may have changed, stay). Undefined when `playlistId` names a playlist the owner has
   * deleted since: a deleted playlist is not made again.
   */
  async saveImported(
    ownerId: number,
    values: { playlistId: number | undefined; name: string; description: string | null; songIds: readonly number[] },
  ): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      let id = values.playlistId;
      if (id === undefined) {
        const [row] = await tx.insert(playlists).values({ ownerId, name: values.name, description: values.description }).returning({ id: playlists.id });
        id = row!.id;
      } else {
        const [row] = await tx
          .update(playlists)
          .set({ updatedAt: new Date() })
          .where(and(eq(playlists.id, id), eq(playlists.ownerId, ownerId)))
          .returning({ id: playlists.id });
        if (!row) return undefined;
        await tx.delete(playlistSongs).where(eq(playlistSongs.playlistId, id));
      }
      await insertInOrder(tx, id, [...new Set(values.songIds)]);
      return id;
    });
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The songs from position `from`, in order, in the caller's transaction: all in one statement,
 * or, when a song was deleted since it was chosen (its foreign key fails), one by one without
 * it. Answers the songs added. `generated`: chosen by an AI playlist's ranking, not by the user.
 */
async function insertInOrder(tx: Tx, playlistId: number, songIds: readonly number[], from = 0, generated = false): Promise<Set<number>> {
  const insert = (ids: readonly number[], at: number) =>
    tx
      .transaction(async (savepoint) => {
        await savepoint.insert(playlistSongs).values(ids.map((songId, index) => ({ playlistId, songId, position: at + index, generated })));
      })
      .then(
        () => true,
        (error: unknown) => {
          if (isForeignKeyViolation(error, 'playlist_songs_song_id_songs_id_fk')) return false;
          throw error;
        },
      );
  if (songIds.length === 0 || (await insert(songIds, from))) return new Set(songIds);
  const added = new Set<number>();
  let position = from;
  for (const songId of songIds) {
    if (await insert([songId], position)) {
      added.add(songId);
      position += 1;
    }
  }
  return added;
}

/** Positions change only under this lock (SELECT … FOR UPDATE of the playlist row). */
function lockPlaylist(tx: Tx, playlistId: number) {
  return tx.execute(sql`select id from ${playlists} where ${playlists.id} = ${playlistId} for update`);
}

function touch(tx: Tx, playlistId: number) {
  return tx.update(playlists).set({ updatedAt: new Date() }).where(eq(playlists.id, playlistId));
}
