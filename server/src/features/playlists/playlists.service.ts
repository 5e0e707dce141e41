import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import { KEEP_FRESH_NOT_AI, PLAYLIST_IMPORT_MAX_ENTRIES, PLAYLIST_IMPORT_MESSAGES, type PlaylistImportReport } from '@encore/common/playlists.contract';
import type { SongFactsSource, SongRecord } from '../library/library.port.js';
import { questionsOf, songsOfEntries } from './playlist-import.js';
import { parseM3u } from './playlist-m3u.format.js';
import type { ImportedPlaylistFile, PlaylistFile } from './playlists.port.js';
import type { PlaylistRow, PlaylistsRepository } from './playlists.repository.js';

/** What playlists need from the music library. */
export interface SongCatalog {
  /** The songs with these ids that still exist, as `viewerId` sees them (their likes). */
  songsByIds(ids: number[], viewerId: number): Promise<SongRecord[]>;
  /** The display names of the songs with these ids that still exist. */
  displayNames(ids: readonly number[]): Promise<Map<number, string>>;
  /** A signed, absolute-or-relative stream URL valid for `expiresInSeconds`. */
  streamUrl(songId: number, expiresInSeconds: number): Promise<string>;
}

/** A playlist in a list: the names of its songs, in order. */
export interface PlaylistOverview {
  row: PlaylistRow;
  songs: { id: number; displayName: string }[];
}

/** A playlist with its songs in order (those still in the library). */
export interface PlaylistWithSongs {
  row: PlaylistRow;
  songs: SongRecord[];
}

const NOT_FOUND = 'Playlist not found';
const SONG_NOT_FOUND = 'Song not found';

export class PlaylistsService {
  private readonly keptFreshListeners: ((playlistId: number) => Promise<void>)[] = [];

  constructor(
    private readonly repository: PlaylistsRepository,
    private readonly catalog: SongCatalog,
    private readonly songs: Pick<SongFactsSource, 'lookUp'>,
  ) {}

  async list(ownerId: number): Promise<PlaylistOverview[]> {
    const rows = await this.repository.listByOwner(ownerId);
    const entries = await this.repository.entries(rows.map((row) => row.id));
    const names = await this.catalog.displayNames(entries.map((entry) => entry.songId));
    // A song deleted since the entries were read is left out, as its entry is by now.
    const named = entries.flatMap((entry) => {
      const displayName = names.get(entry.songId);
      return displayName === undefined ? [] : [{ playlistId: entry.playlistId, id: entry.songId, displayName }];
    });
    return rows.map((row) => ({
      row,
      songs: named.filter((entry) => entry.playlistId === row.id).map(({ id, displayName }) => ({ id, displayName })),
    }));
  }

  async get(id: number, ownerId: number): Promise<PlaylistWithSongs> {
    const row = await this.owned(id, ownerId);
    const entries = await this.repository.entries([row.id]);
    const songs = await this.catalog.songsByIds(
      entries.map((entry) => entry.songId),
      ownerId,
    );
    const byId = new Map(songs.map((song) => [song.id, song]));
    const ordered = entries.map((entry) => byId.get(entry.songId)).filter((song): song is SongRecord => song !== undefined);
    return { row, songs: ordered };
  }

  async create(ownerId: number, values: { name: string; description: string | null }): Promise<PlaylistWithSongs> {
    const row = await this.repository.create(ownerId, values);
    return { row, songs: [] };
  }

  async update(id: number, ownerId: number, values: { name: string; description: string | null }): Promise<PlaylistWithSongs> {
    const row = await this.repository.update(id, ownerId, values);
    if (!row) throw new NotFoundError(NOT_FOUND);
    return this.get(row.id, ownerId);
  }

  /** Keeps an AI playlist generated from a prompt fresh, or stops (issue 41). */
  async setKeepFresh(id: number, ownerId: number, keepFresh: boolean): Promise<PlaylistWithSongs> {
    const row = await this.owned(id, ownerId);
    if (row.aiPrompt === null || row.aiSize === null) throw new ValidationError(KEEP_FRESH_NOT_AI);
    if (!(await this.repository.setKeepFresh(id, ownerId, keepFresh))) throw new NotFoundError(NOT_FOUND);
    // Switched on: ranked again now for the songs that came while it was off, not at the next song.
    if (keepFresh && !row.keepFresh) for (const listener of this.keptFreshListeners) await listener(id);
    return this.get(id, ownerId);
  }

  /** See GeneratedPlaylists.onKeptFresh. */
  onKeptFresh(listener: (playlistId: number) => Promise<void>): void {
    this.keptFreshListeners.push(listener);
  }

  async delete(id: number, ownerId: number): Promise<void> {
    if (!(await this.repository.delete(id, ownerId))) throw new NotFoundError(NOT_FOUND);
  }

  async addSong(id: number, ownerId: number, songId: number): Promise<PlaylistWithSongs> {
    await this.owned(id, ownerId);
    if (!(await this.catalog.displayNames([songId])).has(songId)) throw new NotFoundError(SONG_NOT_FOUND);
    const added = await this.repository.addSong(id, songId);
    if (added === 'no-song') throw new NotFoundError(SONG_NOT_FOUND);
    if (added === 'present') throw new ConflictError('This song is already in the playlist.');
    return this.get(id, ownerId);
  }

  /** Appends the songs in this order, leaving out those the playlist has; an unknown song adds none of them (404). */
  async addSongs(id: number, ownerId: number, songIds: readonly number[]): Promise<PlaylistWithSongs> {
    await this.owned(id, ownerId);
    const known = await this.catalog.displayNames(songIds);
    if (songIds.some((songId) => !known.has(songId))) throw new NotFoundError(SONG_NOT_FOUND);
    // One transaction; a song deleted since the check is left out (it is gone from everywhere).
    await this.repository.appendSongs(id, songIds);
    return this.get(id, ownerId);
  }

  async removeSong(id: number, ownerId: number, songId: number): Promise<PlaylistWithSongs> {
    await this.owned(id, ownerId);
    if (!(await this.repository.removeSong(id, songId))) throw new NotFoundError('This song is not in the playlist.');
    return this.get(id, ownerId);
  }

  async reorder(id: number, ownerId: number, songIds: number[]): Promise<PlaylistWithSongs> {
    await this.owned(id, ownerId);
    if (!(await this.repository.reorder(id, songIds))) {
      throw new ValidationError('songIds must list every song of the playlist exactly once.');
    }
    return this.get(id, ownerId);
  }

  /** An extended M3U playlist whose entries are signed stream links, so any player can play it. */
  async m3u8(id: number, ownerId: number, absolute: (url: string) => string): Promise<{ name: string; body: string }> {
    const playlist = await this.get(id, ownerId);
    const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(playlist.row.name)}`];
    for (const song of playlist.songs) {
      const seconds = song.durationSeconds === null ? -1 : Math.round(song.durationSeconds);
      const title = song.artist && song.title ? `${song.artist} - ${song.title}` : song.displayName;
      lines.push(`#EXTINF:${seconds},${oneLine(title)}`);
      lines.push(absolute(await this.catalog.streamUrl(song.id, 7 * 24 * 3600)));
    }
    return { name: playlist.row.name, body: `${lines.join('\n')}\n` };
  }

  /**
   * Appends the songs an M3U or M3U8 file's entries name, in file order, leaving out those the
   * playlist has (or an earlier entry named); all of them or, on an error, none.
   */
  async importM3u(id: number, ownerId: number, text: string): Promise<{ playlist: PlaylistWithSongs; report: PlaylistImportReport }> {
    await this.owned(id, ownerId);
    const entries = parseM3u(text);
    if (!entries) throw new ValidationError(PLAYLIST_IMPORT_MESSAGES.notM3u);
    if (entries.length === 0) throw new ValidationError(PLAYLIST_IMPORT_MESSAGES.noEntries);
    if (entries.length > PLAYLIST_IMPORT_MAX_ENTRIES) throw new ValidationError(PLAYLIST_IMPORT_MESSAGES.tooManyEntries);
    const questions = questionsOf(entries);
    const songIds = songsOfEntries(entries, questions, await this.songs.lookUp(questions.lookup));
    const { added, present } = await this.repository.appendSongs(
      id,
      songIds.filter((songId): songId is number => songId !== undefined),
    );
    const report: PlaylistImportReport = { added: added.size, alreadyThere: 0, notFound: [] };
    songIds.forEach((songId, index) => {
      // A song deleted between the match and the append is as not found as one never matched.
      if (songId === undefined || (!added.has(songId) && !present.has(songId))) report.notFound.push({ entry: entries[index]!.label });
    });
    report.alreadyThere = entries.length - report.added - report.notFound.length;
    return { playlist: await this.get(id, ownerId), report };
  }

  /** A playlist file of a music folder as the owner's playlist: entries by the caller's paths first, then as importM3u matches them. */
  async importFile(ownerId: number, file: PlaylistFile): Promise<ImportedPlaylistFile> {
    const entries = parseM3u(file.text);
    if (!entries) return { playlistId: undefined, songs: 0, notFound: [] };
    const listed = entries.slice(0, PLAYLIST_IMPORT_MAX_ENTRIES);
    const byPath = await file.resolve(listed.map((entry) => entry.location));
    const questions = questionsOf(listed);
    const byTags = songsOfEntries(listed, questions, await this.songs.lookUp(questions.lookup));
    const songIds = listed.map((_entry, index) => byPath[index] ?? byTags[index]);
    const found = songIds.filter((songId): songId is number => songId !== undefined);
    const playlistId = await this.repository.saveImported(ownerId, {
      playlistId: file.playlistId,
      name: file.name,
      description: file.description,
      songIds: found,
    });
    const notFound = listed.flatMap((entry, index) => (songIds[index] === undefined ? [entry.label] : []));
    return { playlistId, songs: new Set(found).size, notFound };
  }

  private async owned(id: number, ownerId: number): Promise<PlaylistRow> {
    const row = await this.repository.find(id, ownerId);
    // Another user's playlist answers exactly like a missing one (DECISIONS).
    if (!row) throw new NotFoundError(NOT_FOUND);
    return row;
  }
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}
