import { randomInt } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  ALBUM_NOT_FOUND,
  ARTIST_NOT_FOUND,
  type AlbumDetail,
  type AlbumPage,
  type AlbumSummary,
  type ArtistDetail,
  type ArtistPage,
  type ArtistSummary,
  type GenreSummary,
  type ListAlbumsOptions,
  type ListArtistsOptions,
} from '@encore/common/browse.contract';
import type { SongListEntry } from '@encore/common/library.contract';
import { NotFoundError, PayloadTooLargeError } from '../../platform/errors/app-errors.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { SimilarSongs } from '../discovery/discovery.port.js';
import {
  toSongListEntry,
  type AlbumOrder,
  type AlbumRecord,
  type ArtistOrder,
  type ArtistRecord,
  type SongBrowse,
  type SongCatalogue,
} from '../library/library.port.js';
import type { Listening } from '../listening/listening.port.js';
import { ZIP_LIMIT_BYTES, zipStream } from './album-zip.js';
import { formatCursor, parseCursor } from './browse-cursor.js';

export interface BrowseDeps {
  browse: SongBrowse;
  catalogue: Pick<SongCatalogue, 'songsByIds'>;
  listening: Pick<Listening, 'allListening' | 'plays'>;
  similar: Pick<SimilarSongs, 'similarToAny'>;
  storage: Pick<Storage, 'get'>;
}

const DEFAULT_LIMIT = 60;
const TOP_SONGS = 10;
const SIMILAR_ARTISTS = 8;
/** How many songs nearest an artist's the similar artists are read from. */
const SIMILAR_SEED_SONGS = 100;
const MOSAIC = 4;

/** The wire's cover URL of a file key (the thumbnail the song list shows too). */
const coverUrlOf = (key: string | null) => (key === null ? null : `/api/files/extract-image?fileKey=${encodeURIComponent(key)}&size=thumb`);

/**
 * The web's browse pages (issue 38) over the library's browse model, the one the Subsonic API
 * lists: the same albums, ids and counts. Plays and likes are the viewer's own.
 */
export class BrowseService {
  constructor(private readonly deps: BrowseDeps) {}

  async artists(viewerId: number, query: ListArtistsOptions): Promise<ArtistPage> {
    const cursor = parseCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const order: ArtistOrder = query.sort === 'plays' ? { scores: await this.playCounts(viewerId) } : (query.sort ?? 'name');
    const found = await this.deps.browse.findArtists({ ...(query.q ? { q: query.q } : {}), order, page: { offset: cursor.offset, count: limit } });
    return { items: await this.artistSummaries(found.records, viewerId), nextCursor: found.more ? formatCursor({ offset: cursor.offset + limit }) : null };
  }

  async albums(viewerId: number, query: ListAlbumsOptions): Promise<AlbumPage> {
    const cursor = parseCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_LIMIT;
    let order: AlbumOrder = 'name';
    let seed: number | undefined;
    if (query.sort === 'plays') order = { scores: await this.playCounts(viewerId) };
    else if (query.sort === 'random') {
      seed = cursor.seed ?? randomInt(0, 0xffffffff);
      order = { seed };
    } else if (query.sort) order = query.sort;
    const found = await this.deps.browse.findAlbums({
      ...(query.q ? { q: query.q } : {}),
      ...(query.genre ? { genre: query.genre } : {}),
      ...(query.yearFrom === undefined ? {} : { yearFrom: query.yearFrom }),
      ...(query.yearTo === undefined ? {} : { yearTo: query.yearTo }),
      ...(query.artistId ? { artistKey: query.artistId } : {}),
      order,
      page: { offset: cursor.offset, count: limit },
    });
    const next = { offset: cursor.offset + limit, ...(seed === undefined ? {} : { seed }) };
    return { items: await this.albumSummaries(found.records, viewerId), nextCursor: found.more ? formatCursor(next) : null };
  }

  async album(viewerId: number, id: string): Promise<AlbumDetail> {
    const album = await this.deps.browse.album(id);
    if (!album) throw new NotFoundError(ALBUM_NOT_FOUND);
    const ordered = await this.deps.browse.albumSongs(album.key, viewerId);
    const [summary] = await this.albumSummaries([album], viewerId);
    return {
      ...(summary as AlbumSummary),
      songs: await this.songEntries(
        ordered.map((song) => song.id),
        viewerId,
      ),
    };
  }

  async artist(viewerId: number, id: string): Promise<ArtistDetail> {
    const [artist, appearances] = await Promise.all([this.deps.browse.artist(id), this.deps.browse.appearsOn(id)]);
    if (!artist && !appearances) throw new NotFoundError(ARTIST_NOT_FOUND);
    const [own, songIds] = await Promise.all([this.deps.browse.albumsOf(id), this.deps.browse.artistSongIds(id)]);
    const [albums, appearsOn, summary, topSongs, similarArtists] = await Promise.all([
      this.albumSummaries(own, viewerId),
      this.albumSummaries(appearances?.albums ?? [], viewerId),
      artist ? this.artistSummaries([artist], viewerId) : Promise.resolve([]),
      this.topSongs(songIds, viewerId),
      this.similarArtists(id, songIds, viewerId),
    ]);
    const image = summary[0];
    return {
      id,
      name: artist?.name ?? appearances?.name ?? '',
      imageUrl: image?.imageUrl ?? null,
      imageKey: image?.imageKey ?? null,
      albums,
      appearsOn,
      topSongs,
      similarArtists,
    };
  }

  async genres(): Promise<GenreSummary[]> {
    return this.deps.browse.genres();
  }

  /** The album's original files in disc and track order, as one zip streamed while it is read. */
  async albumDownload(viewerId: number, id: string): Promise<{ fileName: string; stream: Readable }> {
    const album = await this.deps.browse.album(id);
    if (!album) throw new NotFoundError(ALBUM_NOT_FOUND);
    const ordered = await this.deps.browse.albumSongs(album.key, viewerId);
    const records = new Map(
      (
        await this.deps.catalogue.songsByIds(
          ordered.map((song) => song.id),
          viewerId,
        )
      ).map((song) => [song.id, song]),
    );
    const total = [...records.values()].reduce((sum, song) => sum + song.size, 0);
    if (total > ZIP_LIMIT_BYTES) throw new PayloadTooLargeError('This album is larger than 4 GB: download its songs one by one.');
    const used = new Set<string>();
    const entries = ordered.flatMap((song) => {
      const record = records.get(song.id);
      if (!record) return [];
      const name = uniqueName(entryName(record.discNumber, record.trackNumber, record.fileName), used);
      return [{ name, size: record.size, open: async () => (await this.deps.storage.get(record.storageKey)).stream }];
    });
    return { fileName: `${safeName(`${album.artist} - ${album.name}`)}.zip`, stream: zipStream(entries) };
  }

  private async playCounts(viewerId: number): Promise<Map<number, number>> {
    const listening = await this.deps.listening.allListening(viewerId);
    return new Map([...listening].map(([id, entry]) => [id, entry.playCount]));
  }

  private async topSongs(songIds: readonly number[], viewerId: number): Promise<SongListEntry[]> {
    if (songIds.length === 0) return [];
    const plays = await this.deps.listening.plays(viewerId, songIds);
    const top = [...plays]
      .filter(([, entry]) => entry.playCount > 0)
      .sort(([a, x], [b, y]) => y.playCount - x.playCount || y.lastPlayedAt.getTime() - x.lastPlayedAt.getTime() || a - b)
      .slice(0, TOP_SONGS)
      .map(([id]) => id);
    return this.songEntries(top, viewerId);
  }

  private async similarArtists(artistKey: string, songIds: readonly number[], viewerId: number): Promise<ArtistSummary[]> {
    if (songIds.length === 0) return [];
    const nearest = await this.deps.similar.similarToAny(songIds, SIMILAR_SEED_SONGS);
    const keys = nearest.length === 0 ? new Map<number, { artistKey: string }>() : await this.deps.browse.keysOf(nearest);
    const found: string[] = [];
    for (const songId of nearest) {
      const key = keys.get(songId)?.artistKey;
      if (key !== undefined && key !== artistKey && !found.includes(key)) found.push(key);
      if (found.length >= SIMILAR_ARTISTS) break;
    }
    const artists = (await Promise.all(found.map((key) => this.deps.browse.artist(key)))).filter((artist): artist is ArtistRecord => artist !== undefined);
    return this.artistSummaries(artists, viewerId);
  }

  /** The songs in this order as the song list shows them. */
  private async songEntries(ids: readonly number[], viewerId: number): Promise<SongListEntry[]> {
    if (ids.length === 0) return [];
    const records = new Map((await this.deps.catalogue.songsByIds([...ids], viewerId)).map((song) => [song.id, song]));
    return ids.flatMap((id) => {
      const record = records.get(id);
      return record ? [toSongListEntry(record, viewerId)] : [];
    });
  }

  /** The storage keys of these songs (the file keys covers are fetched by), in one read. */
  private async fileKeys(songIds: Iterable<number>, viewerId: number): Promise<Map<number, string>> {
    const ids = [...new Set(songIds)];
    if (ids.length === 0) return new Map();
    return new Map((await this.deps.catalogue.songsByIds(ids, viewerId)).map((song) => [song.id, song.storageKey]));
  }

  private async albumSummaries(albums: readonly AlbumRecord[], viewerId: number): Promise<AlbumSummary[]> {
    const keys = await this.fileKeys(
      albums.flatMap((album) => (album.coverSongId === null ? [] : [album.coverSongId])),
      viewerId,
    );
    return albums.map((album) => {
      const coverKey = album.coverSongId === null ? null : (keys.get(album.coverSongId) ?? null);
      return {
        id: album.key,
        name: album.name,
        artist: { id: album.artistKey, name: album.artist },
        year: album.year,
        genres: [...album.genres],
        songCount: album.songCount,
        durationSeconds: album.durationSeconds,
        coverUrl: coverUrlOf(coverKey),
        coverKey,
      };
    });
  }

  private async artistSummaries(artists: readonly ArtistRecord[], viewerId: number): Promise<ArtistSummary[]> {
    // A mosaic when two albums or more have covers.
    const mosaics = new Map(artists.map((artist) => [artist.key, artist.albumCoverSongIds.length > 1 ? artist.albumCoverSongIds.slice(0, MOSAIC) : []]));
    const keys = await this.fileKeys(
      [...artists.flatMap((artist) => (artist.coverSongId === null ? [] : [artist.coverSongId])), ...[...mosaics.values()].flat()],
      viewerId,
    );
    return artists.map((artist) => {
      const imageKey = artist.coverSongId === null ? null : (keys.get(artist.coverSongId) ?? null);
      return {
        id: artist.key,
        name: artist.name,
        albumCount: artist.albumCount,
        songCount: artist.songCount,
        imageUrl: coverUrlOf(imageKey),
        imageKey,
        mosaicKeys: (mosaics.get(artist.key) ?? []).flatMap((id) => {
          const key = keys.get(id);
          return key === undefined ? [] : [key];
        }),
      };
    });
  }
}

/** "1-03 name.flac" on a multi-disc album, "03 name.flac" else, "name.flac" without a track number. */
function entryName(disc: number | null, track: number | null, fileName: string): string {
  const base = safeName(path.basename(fileName.replaceAll('\\', '/'))) || 'song';
  if (track === null) return base;
  const number = String(track).padStart(2, '0');
  return disc !== null && disc > 1 ? `${disc}-${number} ${base}` : `${number} ${base}`;
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** A name any file system takes: no path separators or control characters. */
function safeName(name: string): string {
  return (
    name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f/\\:*?"<>|]+/g, '_')
      .trim()
      .slice(0, 200)
  );
}
