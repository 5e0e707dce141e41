import { NotFoundError } from '../../platform/errors/app-errors.js';
import type { PlaylistsRepository } from './playlists.repository.js';
import type { PlaylistWithSongs, PlaylistsService } from './playlists.service.js';
import type { UserPlaylist, UserPlaylistChanges, UserPlaylists, UserPlaylistSummary } from './playlists.port.js';

/** The user-playlists port over the playlists service: the same rules as the web API (owner only, a song once). */
export class UserPlaylistsAdapter implements UserPlaylists {
  constructor(
    private readonly service: PlaylistsService,
    private readonly repository: Pick<PlaylistsRepository, 'appendSongs'>,
  ) {}

  async list(ownerId: number): Promise<UserPlaylistSummary[]> {
    const overviews = await this.service.list(ownerId);
    // The durations need the songs: one read per playlist (a user has tens, not thousands).
    const full = await Promise.all(overviews.map((overview) => this.service.get(overview.row.id, ownerId)));
    return full.map((playlist) => {
      const { songs, ...summary } = toUserPlaylist(playlist);
      const durationSeconds = songs.reduce((total, song) => total + Math.round(song.durationSeconds ?? 0), 0);
      return { ...summary, songCount: songs.length, durationSeconds };
    });
  }

  async get(id: number, ownerId: number): Promise<UserPlaylist> {
    return toUserPlaylist(await this.service.get(id, ownerId));
  }

  async create(ownerId: number, name: string, songIds: readonly number[]): Promise<UserPlaylist> {
    const created = await this.service.create(ownerId, { name, description: null });
    if (songIds.length > 0) await this.repository.appendSongs(created.row.id, songIds);
    return this.get(created.row.id, ownerId);
  }

  async update(id: number, ownerId: number, changes: UserPlaylistChanges): Promise<UserPlaylist> {
    let current = await this.service.get(id, ownerId);
    if (changes.name !== undefined || changes.comment !== undefined) {
      current = await this.service.update(id, ownerId, {
        name: changes.name ?? current.row.name,
        description: changes.comment !== undefined ? changes.comment || null : current.row.description,
      });
    }
    const indexes = new Set(changes.songIndexesToRemove ?? []);
    const removed = current.songs.filter((_song, index) => indexes.has(index));
    for (const song of removed) {
      // A song another call removed meanwhile is already gone: what was asked holds.
      await this.service.removeSong(id, ownerId, song.id).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
    }
    if (changes.songIdsToAdd && changes.songIdsToAdd.length > 0) await this.repository.appendSongs(id, changes.songIdsToAdd);
    return this.get(id, ownerId);
  }

  async delete(id: number, ownerId: number): Promise<void> {
    await this.service.delete(id, ownerId);
  }
}

function toUserPlaylist({ row, songs }: PlaylistWithSongs): UserPlaylist {
  return {
    id: row.id,
    ownerId: row.ownerId,
    name: row.name,
    comment: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    aiPrompt: row.aiPrompt,
    songs,
  };
}
