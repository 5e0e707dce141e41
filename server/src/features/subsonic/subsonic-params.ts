import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';

/** The most any list answers at once (search3 pages, album lists, random songs). */
export const MAX_PAGE = 500;
/** Offsets past this are refused as not numbers: no real library pages that far. */
const MAX_OFFSET = 10_000_000;

/**
 * A call's parameters: the query and a form POST's body together (OpenSubsonic formPost), a
 * name repeated for lists (`id=1&id=2`).
 */
export class SubsonicParams {
  constructor(private readonly values: URLSearchParams) {}

  static of(url: string, body: unknown): SubsonicParams {
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    const values = new URLSearchParams(query);
    if (body instanceof URLSearchParams) for (const [key, value] of body) values.append(key, value);
    return new SubsonicParams(values);
  }

  get(name: string): string | undefined {
    return this.values.get(name) ?? undefined;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  all(name: string): string[] {
    return this.values.getAll(name);
  }

  require(name: string): string {
    const value = this.get(name);
    if (value === undefined || value === '') throw missingParameter(name);
    return value;
  }

  /** An integer parameter; absent → `fallback`; not an integer → error 0 naming it. */
  int(name: string, fallback: number): number;
  int(name: string): number | undefined;
  int(name: string, fallback?: number): number | undefined {
    const text = this.get(name);
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,15}$/.test(text.trim())) throw new SubsonicError(0, `Parameter ${name} must be a whole number`);
    return Number(text.trim());
  }

  bool(name: string): boolean {
    return this.get(name)?.toLowerCase() === 'true';
  }

  /** `count` clamped to 0…MAX_PAGE and `offset` to 0…, with the API's default count. */
  page(countName: string, offsetName: string, defaultCount: number): { count: number; offset: number } {
    const count = Math.min(Math.max(this.int(countName, defaultCount), 0), MAX_PAGE);
    const offset = Math.min(Math.max(this.int(offsetName, 0), 0), MAX_OFFSET);
    return { count, offset };
  }
}

/** A song id as clients send it back (the number as text); undefined for anything else. */
export function songIdOf(id: string): number | undefined {
  if (!/^\d{1,10}$/.test(id)) return undefined;
  const value = Number(id);
  return value > 0 && value <= 2_147_483_647 ? value : undefined;
}

export const ALBUM_PREFIX = 'al-';
export const ARTIST_PREFIX = 'ar-';

/** What an id names: a song, an album or an artist (by the browse port's keys). */
export type SubsonicId = { kind: 'song'; id: number } | { kind: 'album'; key: string } | { kind: 'artist'; key: string } | { kind: 'unknown' };

export function parseId(id: string): SubsonicId {
  if (id.startsWith(ALBUM_PREFIX) && id.length > ALBUM_PREFIX.length) return { kind: 'album', key: id.slice(ALBUM_PREFIX.length) };
  if (id.startsWith(ARTIST_PREFIX) && id.length > ARTIST_PREFIX.length) return { kind: 'artist', key: id.slice(ARTIST_PREFIX.length) };
  const songId = songIdOf(id);
  return songId === undefined ? { kind: 'unknown' } : { kind: 'song', id: songId };
}

/**
 * The `musicFolderId` filter: absent or empty, every library; 0 the uploads, n the n-th music
 * folder (getMusicFolders' ids); not a whole number is error 0, an id no folder has is 70.
 */
export function folderFilterOf(params: SubsonicParams, musicFolderCount: number): { musicFolderId?: number } {
  const id = params.int('musicFolderId');
  if (id === undefined) return {};
  if (id < 0 || id > musicFolderCount) throw new SubsonicError(70, 'Music folder not found');
  return { musicFolderId: id };
}

/** A song id parameter: anything that is not a song's id names no song (70). */
export function songIdParam(raw: string): number {
  const id = parseId(raw);
  if (id.kind !== 'song') throw notFound('Song');
  return id.id;
}

/** The client's name (`c`), what now playing and the queue's `changedBy` show. */
export const clientOf = (params: SubsonicParams): string => (params.get('c') ?? '').slice(0, 100) || 'subsonic';
