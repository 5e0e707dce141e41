import { ForbiddenError, NotFoundError } from '../../platform/errors/app-errors.js';
import { sha256 } from '../../platform/crypto/sha256.js';
import type { Logger } from '../../platform/logger.js';
import type { Storage, StoredObject } from '../../platform/storage/storage.types.js';
import type { SongSort } from '@encore/common/library.contract';
import type { Accounts } from '../auth/auth.port.js';
import { CoverThumbnails } from './cover-thumbnails.js';
import type { AudioFile, SongKeys, SongRecord } from './library.port.js';
import { toSongRecord, type LibraryRepository, type SongMediaRow, type SongRow, type ViewedSongRow } from './library.repository.js';
import { playsInBrowsers, TRANSCODE_TYPE, type Transcodes } from './transcodes.js';

/** Long enough to listen to a long track with pauses; the player asks again for each song. */
export const PLAY_URL_TTL_SECONDS = 3600;
export const SONG_NOT_FOUND = 'Song not found';
export const FOLDER_SONG_NOT_DELETABLE = 'This song is a file in a music folder: remove the file from the folder to remove the song.';

export interface ListOptions {
  owner?: boolean;
  favorites?: boolean;
  q?: string;
  sort?: SongSort;
  limit?: number;
  offset?: number;
}

/** A cover ready to send: its validator, and the bytes when asked for. */
export interface CoverImage {
  etag: string;
  contentType: string;
  open(): Promise<StoredObject>;
}

/** What the public share page shows of a song. */
export interface ShareableSong {
  id: number;
  displayName: string;
  artist: string | null;
  album: string | null;
  durationSeconds: number | null;
  hasCover: boolean;
}

export interface LibraryServiceDeps {
  repository: LibraryRepository;
  /** The uploaders' names (the auth module's users). */
  accounts: Accounts;
  storage: Storage;
  logger: Logger;
  /** Browser copies of songs browsers cannot play as they are; without it the original is always served. */
  transcodes?: Transcodes;
  /** Where the browse model files songs (their artist and album pages); without it songs carry no browse ids. */
  browseKeys?: (songIds: readonly number[]) => Promise<Map<number, SongKeys>>;
}

/**
 * Browsing, playing, liking, downloading and deleting songs. The collection is shared: every
 * signed-in user sees every song; likes are the viewer's own; only the uploader may delete.
 */
export class LibraryService {
  private readonly thumbnails: CoverThumbnails;

  constructor(private readonly deps: LibraryServiceDeps) {
    this.thumbnails = new CoverThumbnails({ storage: deps.storage, logger: deps.logger });
  }

  /**
   * The songs as `viewerId` sees them (their likes); the routes turn them into the wire's Song.
   * `favorites` is every song the viewer liked, whoever uploaded it: `owner` does not narrow it
   * (the spec's Favorites link carries both, from a product where every song was the user's own).
   */
  async list(viewerId: number, options: ListOptions = {}): Promise<{ records: SongRecord[]; total: number }> {
    const favorites = options.favorites === true;
    const { records, total } = await this.deps.repository.list(viewerId, {
      ...(options.owner && !favorites ? { ownerId: viewerId } : {}),
      likedOnly: favorites,
      ...(options.q ? { search: options.q } : {}),
      ...(options.sort ? { sort: options.sort } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
    });
    return { records: await this.named(records), total };
  }

  async get(id: number, viewerId: number): Promise<SongRecord> {
    const found = await this.deps.repository.findById(id, viewerId);
    const [record] = found ? await this.named([found]) : [];
    if (!record) throw new NotFoundError(SONG_NOT_FOUND);
    return record;
  }

  /** For playlists: the songs that still exist among `ids`, in no particular order. */
  async songsByIds(ids: number[], viewerId: number): Promise<SongRecord[]> {
    return this.named(await this.deps.repository.findByIds(ids, viewerId));
  }

  async displayNames(ids: readonly number[]): Promise<Map<number, string>> {
    return this.deps.repository.displayNames(ids);
  }

  /** The URL the player streams the song from: the file, or its browser copy when browsers cannot play the file (made at the first play). */
  async playUrl(id: number): Promise<string> {
    return this.browserUrl(await this.requireRow(id), PLAY_URL_TTL_SECONDS);
  }

  private async browserUrl(row: SongRow, expiresInSeconds: number): Promise<string> {
    const { transcodes } = this.deps;
    if (!transcodes || playsInBrowsers(row)) return this.deps.storage.presignGet(row.storageKey, { expiresInSeconds, contentType: row.fileType });
    return this.deps.storage.presignGet(await transcodes.ensure(row), { expiresInSeconds, contentType: TRANSCODE_TYPE });
  }

  /** A short-lived URL that streams the song (with Range support) from storage. */
  async streamUrl(id: number, expiresInSeconds: number): Promise<string> {
    const row = await this.requireRow(id);
    return this.deps.storage.presignGet(row.storageKey, { expiresInSeconds, contentType: row.fileType });
  }

  async toggleLike(id: number, userId: number): Promise<{ id: number; isLiked: boolean }> {
    const isLiked = await this.deps.repository.toggleLike(userId, id);
    if (isLiked === undefined) throw new NotFoundError(SONG_NOT_FOUND);
    return { id, isLiked };
  }

  /** Likes or unlikes as asked, whatever it was (another API's star and unstar); not found when the song does not exist. */
  async setLiked(id: number, userId: number, liked: boolean): Promise<void> {
    if (!(await this.deps.repository.setLike(userId, id, liked))) throw new NotFoundError(SONG_NOT_FOUND);
  }

  /** The cover of a song by its id: undefined when it has none; not found for an unknown song. */
  async coverOfSong(id: number, size: 'thumb' | 'full'): Promise<CoverImage | undefined> {
    const media = await this.deps.repository.findMedia(id);
    if (!media) throw new NotFoundError(SONG_NOT_FOUND);
    return this.coverOf(media, size);
  }

  /** The original bytes and the name to offer them under. */
  async download(id: number): Promise<{ object: StoredObject; fileName: string; fileType: string }> {
    const row = await this.requireRow(id);
    const object = await this.deps.storage.get(row.storageKey).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new NotFoundError('Song not available for download.');
      throw error;
    });
    return { object, fileName: row.fileName, fileType: row.fileType };
  }

  /** Only the uploader; the row goes first (so nobody can reach a half-deleted song), then the files. */
  async delete(id: number, userId: number): Promise<void> {
    const row = await this.requireRow(id);
    if (row.ownerId !== userId) throw new ForbiddenError(row.ownerId === null ? FOLDER_SONG_NOT_DELETABLE : 'Only the uploader can delete this song.');
    const deleted = await this.deps.repository.deleteOwned(id, userId);
    if (!deleted) throw new NotFoundError(SONG_NOT_FOUND);
    await this.removeObjects(storedKeys(deleted));
  }

  /** The cover of the song stored at `fileKey`: undefined when it has none; 404 for an unknown key. */
  async cover(fileKey: string, size: 'thumb' | 'full'): Promise<CoverImage | undefined> {
    const row = await this.deps.repository.findByStorageKey(fileKey);
    if (!row) throw new NotFoundError(SONG_NOT_FOUND);
    return this.coverOf(row, size);
  }

  private coverOf({ coverKey, coverThumbKey }: Pick<SongMediaRow, 'coverKey' | 'coverThumbKey'>, size: 'thumb' | 'full'): CoverImage | undefined {
    if (!coverKey) return undefined;
    const thumbKey = size === 'thumb' ? coverThumbKey : null;
    // Cover keys are never rewritten, so the key itself identifies the bytes.
    const etag = `"${sha256(thumbKey ?? coverKey, 'base64url').slice(0, 22)}"`;
    return {
      etag,
      contentType: 'image/jpeg',
      open: () => (thumbKey ? this.thumbnails.open(coverKey, thumbKey) : this.deps.storage.get(coverKey)),
    };
  }

  async shareable(id: number): Promise<ShareableSong | undefined> {
    const row = await this.deps.repository.findRow(id);
    if (!row) return undefined;
    const { displayName, artist, album, durationSeconds } = row;
    return { id: row.id, displayName, artist, album, durationSeconds, hasCover: row.coverKey !== null };
  }

  async songIdByStorageKey(storageKey: string): Promise<number | undefined> {
    return (await this.deps.repository.findByStorageKey(storageKey))?.id;
  }

  async audioFile(songId: number): Promise<AudioFile | undefined> {
    const media = await this.deps.repository.findMedia(songId);
    if (!media) return undefined;
    const { storageKey, fileType, fileName, bitrate, durationSeconds } = media;
    return { storageKey, fileType, fileName, bitrate, durationSeconds };
  }

  /** Signed URLs that work without an account, for the public share page. */
  async publicMedia(id: number, expiresInSeconds: number): Promise<{ streamUrl: string; coverUrl: string | null }> {
    const row = await this.requireRow(id);
    const streamUrl = await this.browserUrl(row, expiresInSeconds);
    const coverUrl = row.coverKey ? await this.deps.storage.presignGet(row.coverKey, { expiresInSeconds, contentType: 'image/jpeg' }) : null;
    return { streamUrl, coverUrl };
  }

  /**
   * The records of these rows with their uploaders' names, asked for in one call. A song whose
   * uploader is gone is left out: deleting a user deletes their songs, this one only just. A
   * song of a music folder has no uploader (its name is empty).
   */
  private async named(rows: ViewedSongRow[]): Promise<SongRecord[]> {
    if (rows.length === 0) return [];
    const owners = rows.flatMap(({ row }) => (row.ownerId === null ? [] : [row.ownerId]));
    const names = owners.length === 0 ? new Map<number, string>() : await this.deps.accounts.userNames(owners);
    return this.withBrowseIds(
      rows.flatMap((viewed) => {
        if (viewed.row.ownerId === null) return [toSongRecord(viewed, '')];
        const uploadedBy = names.get(viewed.row.ownerId);
        return uploadedBy === undefined ? [] : [toSongRecord(viewed, uploadedBy)];
      }),
    );
  }

  /**
   * The records with the ids of their artist's and album's browse pages; without them when the
   * browse index cannot be read (a list of songs matters more than its links).
   */
  async withBrowseIds(records: SongRecord[]): Promise<SongRecord[]> {
    if (!this.deps.browseKeys || records.length === 0) return records;
    let keys: Map<number, SongKeys>;
    try {
      keys = await this.deps.browseKeys(records.map((record) => record.id));
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the songs’ browse ids could not be read');
      return records;
    }
    return records.map((record) => {
      const key = keys.get(record.id);
      return key ? { ...record, browseIds: { artistId: key.trackArtistKey, albumId: key.albumKey } } : record;
    });
  }

  private async requireRow(id: number): Promise<SongRow> {
    const row = await this.deps.repository.findRow(id);
    if (!row) throw new NotFoundError(SONG_NOT_FOUND);
    return row;
  }

  private async removeObjects(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      // The song is gone either way; a leftover object is only wasted space, so log and go on.
      if (result.status === 'rejected') this.deps.logger.warn({ err: result.reason, key: keys[index] }, 'could not delete a stored object');
    });
  }
}

export function storedKeys(row: Pick<SongRow, 'storageKey' | 'coverKey' | 'coverThumbKey'>): string[] {
  return [row.storageKey, row.coverKey, row.coverThumbKey].filter((key): key is string => key !== null);
}
