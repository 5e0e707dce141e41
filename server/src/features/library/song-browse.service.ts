import type { Logger } from '../../platform/logger.js';
import type { AlbumListKind, AlbumRecord, ArtistRecord, Page, SongBrowse, SongRecord } from './library.port.js';
import type { LibraryService } from './library.service.js';
import { BrowseIndex, namesOf, toAlbumRecord, toArtistRecord, yearOf, type AlbumEntry } from './song-browse.index.js';
import { sameVersion, type BrowseVersion, type SongBrowseRepository } from './song-browse.repository.js';

export interface SongBrowseDeps {
  repository: SongBrowseRepository;
  /** Songs as a viewer sees them, with their uploaders' names (and the library's search). */
  songs: Pick<LibraryService, 'songsByIds' | 'list'>;
  /** How old the index may get before it is rebuilt in the background (retags in place change no version). */
  maxAgeMs?: number;
  /** Hears of a background rebuild that failed (the index in use stays). */
  logger?: Pick<Logger, 'warn'>;
}

/** At most this many random songs at once (getRandomSongs' own limit). */
const MAX_RANDOM_SONGS = 500;

/**
 * The collection by artist, album and genre (the Subsonic API's ID3 model), from an index of the
 * present songs' tags held in memory: grouping 50,000 songs by folded names takes the database
 * about a second on PGlite, while a page of a list must take milliseconds. Each call first reads
 * the songs' version (two index reads): songs added only extend the index (the new rows alone are
 * read), any other change (deletes, files gone missing or back) rebuilds it. A retag in place
 * changes no version: the index is also rebuilt in the background once it is `maxAgeMs` old.
 */
export class SongBrowseService implements SongBrowse {
  private index: BrowseIndex | undefined;
  private version: BrowseVersion | undefined;
  private builtAt = 0;
  private building: Promise<BrowseIndex> | undefined;

  constructor(private readonly deps: SongBrowseDeps) {}

  async artists(): Promise<ArtistRecord[]> {
    return (await this.current()).artistsByName().map(toArtistRecord);
  }

  async artist(key: string): Promise<ArtistRecord | undefined> {
    const artist = (await this.current()).artists.get(key);
    return artist && toArtistRecord(artist);
  }

  /** The artist's albums by year (those without one last), then name. */
  async albumsOf(artistKey: string): Promise<AlbumRecord[]> {
    const artist = (await this.current()).artists.get(artistKey);
    if (!artist) return [];
    const year = (album: AlbumEntry) => yearOf(album) ?? Number.MAX_SAFE_INTEGER;
    return [...artist.albums].sort((a, b) => year(a) - year(b) || (a.fold < b.fold ? -1 : a.fold > b.fold ? 1 : 0)).map(toAlbumRecord);
  }

  async album(key: string): Promise<AlbumRecord | undefined> {
    const album = (await this.current()).albums.get(key);
    return album && toAlbumRecord(album);
  }

  async albumSongs(key: string, viewerId: number): Promise<SongRecord[]> {
    const album = (await this.current()).albums.get(key);
    if (!album) return [];
    const records = await this.deps.songs.songsByIds(album.songIds, viewerId);
    const title = (song: SongRecord) => (song.title ?? song.displayName).toLowerCase();
    // A song without a disc number is on the first disc.
    return records.sort(
      (a, b) =>
        (a.discNumber ?? 1) - (b.discNumber ?? 1) ||
        (a.trackNumber ?? 0) - (b.trackNumber ?? 0) ||
        (title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0) ||
        a.id - b.id,
    );
  }

  async keysOf(songIds: readonly number[]): Promise<Map<number, { albumKey: string; artistKey: string }>> {
    const index = await this.current();
    const keys = new Map<number, { albumKey: string; artistKey: string }>();
    for (const id of songIds) {
      const song = index.songs.get(id);
      if (song) keys.set(id, { albumKey: song.album.key, artistKey: song.album.artist.key });
    }
    return keys;
  }

  /**
   * Until plays are counted, `frequent`, `recent` and `highest` stand on the viewer's likes (likes
   * are private: nobody else's count): albums with a song the viewer liked, by how many
   * (`frequent`), by the newest like (`recent`), by the share of their songs liked (`highest`).
   * `starred` is the albums with a liked song, newest like first. `byGenre` matches an album with
   * a song of that genre, case and accents folded; `byYear` leaves albums without a year out.
   */
  async albumList(kind: AlbumListKind, page: Page, options: { viewerId: number; fromYear?: number; toYear?: number; genre?: string }): Promise<AlbumRecord[]> {
    const index = await this.current();
    switch (kind) {
      case 'random':
        return sample([...index.albums.values()], clampPage(page).count).map(toAlbumRecord);
      case 'newest':
        return paged(index.albumsNewest(), page).map(toAlbumRecord);
      case 'alphabeticalByName':
        return paged(index.albumsByName(), page).map(toAlbumRecord);
      case 'alphabeticalByArtist':
        return paged(index.albumsByArtist(), page).map(toAlbumRecord);
      case 'byYear': {
        const from = options.fromYear ?? Number.MIN_SAFE_INTEGER;
        const to = options.toYear ?? Number.MAX_SAFE_INTEGER;
        const [low, high] = from <= to ? [from, to] : [to, from];
        const albums = index.albumsByYear().filter((album) => {
          const year = yearOf(album) ?? 0;
          return year >= low && year <= high;
        });
        return paged(from > to ? albums.reverse() : albums, page).map(toAlbumRecord);
      }
      case 'byGenre': {
        const genre = options.genre === undefined ? undefined : await this.foldOne(options.genre);
        return paged(
          index.albumsByArtist().filter((album) => genre !== undefined && album.genres.has(genre)),
          page,
        ).map(toAlbumRecord);
      }
      case 'starred':
      case 'recent':
      case 'frequent':
      case 'highest':
        return paged(await this.likedAlbums(index, kind, options.viewerId), page).map(toAlbumRecord);
    }
  }

  async genres(): Promise<{ name: string; songCount: number; albumCount: number }[]> {
    return (await this.current()).genresByName().map((genre) => ({ name: genre.name, songCount: genre.songCount, albumCount: genre.albums.size }));
  }

  /** The genre's songs (case and accents folded) in id order: pages stay put while songs are added. */
  async songsByGenre(genre: string, page: Page, viewerId: number): Promise<SongRecord[]> {
    const index = await this.current();
    const folded = await this.foldOne(genre);
    const ids = index.songIds.filter((id) => index.songs.get(id)?.genre === folded);
    return this.records(paged(ids, page), viewerId);
  }

  async randomSongs(options: { size: number; genre?: string; fromYear?: number; toYear?: number }, viewerId: number): Promise<SongRecord[]> {
    const index = await this.current();
    const genre = options.genre === undefined ? undefined : await this.foldOne(options.genre);
    const hasYears = options.fromYear !== undefined || options.toYear !== undefined;
    const from = options.fromYear ?? Number.MIN_SAFE_INTEGER;
    const to = options.toYear ?? Number.MAX_SAFE_INTEGER;
    const ids = index.songIds.filter((id) => {
      const song = index.songs.get(id);
      if (!song) return false;
      if (genre !== undefined && song.genre !== genre) return false;
      return !hasYears || (song.year !== null && song.year >= Math.min(from, to) && song.year <= Math.max(from, to));
    });
    const size = Math.max(0, Math.min(MAX_RANDOM_SONGS, Math.trunc(options.size)));
    return this.records(sample(ids, size), viewerId);
  }

  /**
   * Artists by name; albums by name or artist name; songs as the music page's search finds them
   * (title, artist, album, a typo forgiven), in its title order. An empty query lists everything:
   * artists by name, albums by artist and name, songs by id (what a client syncing the whole
   * library in pages of 500 needs: each page is a slice of the ids, no sort of 50,000 songs).
   */
  async search(
    query: string,
    pages: { artists: Page; albums: Page; songs: Page },
    viewerId: number,
  ): Promise<{ artists: ArtistRecord[]; albums: AlbumRecord[]; songs: SongRecord[] }> {
    const index = await this.current();
    const trimmed = query.trim();
    if (trimmed === '') {
      return {
        artists: paged(index.artistsByName(), pages.artists).map(toArtistRecord),
        albums: paged(index.albumsByArtist(), pages.albums).map(toAlbumRecord),
        songs: await this.records(paged(index.songIds, pages.songs), viewerId),
      };
    }
    const words = [...new Set((await this.foldOne(trimmed)).split(/\s+/u).filter((word) => word.length > 0))];
    const matches = (text: string) => words.every((word) => text.includes(word));
    const artists = index.artistsByName().filter((artist) => matches(artist.fold));
    const albums = index.albumsByArtist().filter((album) => matches(`${album.fold} ${album.artist.fold}`));
    const songPage = clampPage(pages.songs);
    const songs =
      songPage.count === 0 ? [] : (await this.deps.songs.list(viewerId, { q: trimmed, sort: 'title', limit: songPage.count, offset: songPage.offset })).records;
    return { artists: paged(artists, pages.artists).map(toArtistRecord), albums: paged(albums, pages.albums).map(toAlbumRecord), songs };
  }

  /**
   * Encore likes songs only: an album or an artist counts as starred when the viewer liked every
   * one of its present songs (a client's starred albums then play as the viewer's favourites).
   */
  async starred(viewerId: number): Promise<{ songs: SongRecord[]; albums: AlbumRecord[]; artists: ArtistRecord[] }> {
    const index = await this.current();
    const likes = await this.deps.repository.likes(viewerId);
    const liked = new Set(likes.map((like) => like.songId));
    const albums = index.albumsByArtist().filter((album) => album.songIds.every((id) => liked.has(id)));
    const artists = index.artistsByName().filter((artist) => artist.albums.every((album) => album.songIds.every((id) => liked.has(id))));
    return {
      songs: await this.records(
        likes.map((like) => like.songId),
        viewerId,
      ),
      albums: albums.map(toAlbumRecord),
      artists: artists.map(toArtistRecord),
    };
  }

  /** Albums with a song the viewer liked, in the order of `kind` (see albumList). */
  private async likedAlbums(index: BrowseIndex, kind: 'starred' | 'recent' | 'frequent' | 'highest', viewerId: number): Promise<AlbumEntry[]> {
    const stats = new Map<AlbumEntry, { likes: number; newest: number }>();
    for (const like of await this.deps.repository.likes(viewerId)) {
      const album = index.songs.get(like.songId)?.album;
      if (!album) continue;
      const stat = stats.get(album);
      if (stat) stat.likes += 1;
      else stats.set(album, { likes: 1, newest: like.likedAt.getTime() });
    }
    const entries = [...stats.entries()];
    const tie = (a: AlbumEntry, b: AlbumEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    if (kind === 'frequent') entries.sort(([a, x], [b, y]) => y.likes - x.likes || y.newest - x.newest || tie(a, b));
    else if (kind === 'highest') entries.sort(([a, x], [b, y]) => y.likes / b.songIds.length - x.likes / a.songIds.length || y.likes - x.likes || tie(a, b));
    else entries.sort(([a, x], [b, y]) => y.newest - x.newest || tie(a, b));
    return entries.map(([album]) => album);
  }

  /** The songs with these ids as the viewer sees them, in this order. */
  private async records(ids: readonly number[], viewerId: number): Promise<SongRecord[]> {
    if (ids.length === 0) return [];
    const records = new Map((await this.deps.songs.songsByIds([...ids], viewerId)).map((record) => [record.id, record]));
    return ids.flatMap((id) => {
      const record = records.get(id);
      return record ? [record] : [];
    });
  }

  private async foldOne(value: string): Promise<string> {
    return (await this.deps.repository.fold([value])).get(value) ?? value.toLowerCase();
  }

  /** The index as the songs are now (see the class comment); concurrent calls share one build. */
  private async current(): Promise<BrowseIndex> {
    const version = await this.deps.repository.version();
    if (this.index && this.version && sameVersion(version, this.version)) {
      if (Date.now() - this.builtAt > (this.deps.maxAgeMs ?? 60_000) && !this.building) {
        // Served as it is; the rebuild replaces it for the next calls.
        this.building = this.build(true).finally(() => (this.building = undefined));
        this.building.catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'rebuilding the song-browse index failed'));
      }
      return this.index;
    }
    while (this.building) await this.building.catch(() => undefined);
    if (this.index && this.version && sameVersion(version, this.version)) return this.index;
    this.building = this.build(false).finally(() => (this.building = undefined));
    return this.building;
  }

  /** Extends the index when songs were only added since (the new rows alone are read), else builds it anew. */
  private async build(full: boolean): Promise<BrowseIndex> {
    const previous = full ? undefined : this.index;
    const before = this.version;
    if (previous && before) {
      const { version, rows } = await this.deps.repository.snapshot(previous.songIds.at(-1) ?? 0);
      // Only additions (none deleted, hidden or shown again): every row above the last id is new.
      const onlyAdded =
        version.missingCount === before.missingCount && version.missingIdSum === before.missingIdSum && version.count - before.count === rows.length;
      if (onlyAdded) {
        previous.add(rows, await this.deps.repository.fold(namesOf(rows)));
        this.version = version;
        return previous;
      }
    }
    const { version, rows } = await this.deps.repository.snapshot(0);
    const index = new BrowseIndex();
    index.add(rows, await this.deps.repository.fold(namesOf(rows)));
    this.index = index;
    this.version = version;
    this.builtAt = Date.now();
    return index;
  }
}

function clampPage(page: Page): Page {
  const whole = (value: number) => (Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0);
  return { count: whole(page.count), offset: whole(page.offset) };
}

function paged<T>(list: readonly T[], page: Page): T[] {
  const { count, offset } = clampPage(page);
  return list.slice(offset, offset + count);
}

/** Up to `size` of `list` in a random order (a partial Fisher–Yates shuffle of a copy). */
function sample<T>(list: readonly T[], size: number): T[] {
  const copy = [...list];
  const n = Math.min(size, copy.length);
  for (let i = 0; i < n; i += 1) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}
