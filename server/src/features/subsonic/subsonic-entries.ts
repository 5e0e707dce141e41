import type { AlbumRecord, BrowsedSong, SongBrowse } from '../library/library.port.js';
import type { Listening } from '../listening/listening.port.js';
import { albumElement, songElement, type Listenings, type ReplayGainElement } from './subsonic-elements.js';
import type { SubsonicObject } from './subsonic-response.js';

/** The replay gain of songs by id, where known (from the loudness analysis). */
export type ReplayGains = (songIds: readonly number[]) => Promise<ReadonlyMap<number, ReplayGainElement>>;

/** What one answer lists: songs and albums, and for albums starred, when the viewer starred them. */
export interface EntryParts {
  songs?: readonly BrowsedSong[];
  albums?: readonly AlbumRecord[];
  starredAlbums?: ReadonlyMap<string, Date>;
  /** The viewer's listening when the caller already read it (album lists by plays): no second read. */
  listenings?: Listenings;
}

/**
 * Song and album elements as one viewer sees them, with their plays, last plays and ratings read
 * once per answer (one query for every song and album of it, whatever their number), and the
 * songs' replay gain read once too.
 */
export class SubsonicEntries {
  constructor(
    private readonly browse: Pick<SongBrowse, 'songs'>,
    private readonly listening: Pick<Listening, 'listeningOf'>,
    private readonly replayGains?: ReplayGains,
  ) {}

  async elements(userId: number, parts: EntryParts): Promise<{ songs: SubsonicObject[]; albums: SubsonicObject[] }> {
    const songs = parts.songs ?? [];
    const albums = parts.albums ?? [];
    const songIds = songs.map((song) => song.id);
    const ids = new Set(songIds);
    for (const album of albums) for (const id of album.songIds) ids.add(id);
    const [listenings, gains] = await Promise.all([
      parts.listenings ?? (ids.size === 0 ? new Map() : this.listening.listeningOf(userId, [...ids])),
      songIds.length === 0 || !this.replayGains ? new Map<number, ReplayGainElement>() : this.replayGains(songIds),
    ]);
    return {
      songs: songs.map((song) => songElement(song, listenings, gains.get(song.id))),
      albums: albums.map((album) => albumElement(album, listenings, parts.starredAlbums?.get(album.key))),
    };
  }

  async songs(userId: number, songs: readonly BrowsedSong[]): Promise<SubsonicObject[]> {
    return (await this.elements(userId, { songs })).songs;
  }

  async albums(userId: number, albums: readonly AlbumRecord[], listenings?: Listenings): Promise<SubsonicObject[]> {
    return (await this.elements(userId, { albums, ...(listenings ? { listenings } : {}) })).albums;
  }

  /** The elements of the songs with these ids, in this order (repeats kept, unknown ids left out). */
  async songsByIds(userId: number, ids: readonly number[]): Promise<SubsonicObject[]> {
    return this.songs(userId, await this.browse.songs(ids, userId));
  }
}
