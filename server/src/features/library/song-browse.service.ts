import type { Logger } from '../../platform/logger.js';
import type {
  AlbumListKind,
  AlbumQuery,
  AlbumRecord,
  ArtistOrder,
  ArtistRecord,
  BrowsedSong,
  FolderFilter,
  Page,
  SongBrowse,
  SongKeys,
} from './library.port.js';
import { findAlbums, findArtists } from './song-browse.finder.js';
import type { LibraryService } from './library.service.js';
import { BrowseIndex, namesOf, toAlbumRecord, toArtistRecord, yearOf, type AlbumEntry } from './song-browse.index.js';
import { sameVersion, type BrowseSongRow, type BrowseVersion, type SongBrowseRepository } from './song-browse.repository.js';

export interface SongBrowseDeps {
  repository: SongBrowseRepository;
  /** The library's search (a worded search3 finds songs as the music page does). */
  songs: Pick<LibraryService, 'list'>;
  /** How old the index may get before it is rebuilt in the background (retags in place change no version). */
  maxAgeMs?: number;
  /** Hears of a background rebuild that failed (the index in use stays). */
  logger?: Pick<Logger, 'warn'>;
  /**
   * Listens for SONGS_CHANNEL (announced by the songs' triggers whenever the version changes).
   * Only where the announcement reaches this process before the write's own answer does, so that
   * a caller that added a song finds it on its next call: the embedded database, one process,
   * whose notifications come with the writing query's result. Without it (PostgreSQL: other
   * processes write too, and a notification comes on another connection, later) every call reads
   * the version.
   */
  listenForChanges?: (onChange: () => void) => Promise<unknown>;
}

/** The channel the songs' triggers announce a change of the browse version on (migration 0029). */
export const SONGS_CHANNEL = 'encore_songs';

/** At most this many random songs at once (getRandomSongs' own limit). */
const MAX_RANDOM_SONGS = 500;

type LibraryListKind = Exclude<AlbumListKind, 'frequent' | 'recent' | 'highest'>;

/**
 * The collection by artist, album and genre (the Subsonic API's ID3 model), from an index of the
 * present songs' tags held in memory: grouping 50,000 songs by folded names takes the database
 * about a second on PGlite, while a page of a list must take milliseconds. Each call first reads
 * the songs' version (two index reads; on the embedded database only after the songs' triggers
 * announced a change of it, see SongBrowseDeps.listenForChanges): songs added only extend the
 * index (the new rows alone are read), any other change (deletes, files gone missing or back)
 * rebuilds it. A retag in place
 * changes no version: the index is also rebuilt in the background once it is `maxAgeMs` old.
 * Songs themselves are read per page, lean (see SongBrowseRepository.page), their keys from the index.
 */
/** How long a song list waits for the browse index before it goes without (keysOf). */
const KEYS_WAIT_MS = 250;

export class SongBrowseService implements SongBrowse {
  private index: BrowseIndex | undefined;
  private version: BrowseVersion | undefined;
  private builtAt = 0;
  private building: Promise<BrowseIndex> | undefined;
  /** Announcements heard (see SongBrowseDeps.listenForChanges). */
  private changes = 0;
  /** `changes` when the index was last known to match the songs' version; -1: unknown. */
  private goodAt = -1;
  private listening: Promise<boolean> | undefined;

  constructor(private readonly deps: SongBrowseDeps) {}

  async artists(filter: FolderFilter = {}): Promise<ArtistRecord[]> {
    const index = await this.current();
    return index.inFolder('artists', index.artistsByName(), filter.musicFolderId).map(toArtistRecord);
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

  async albumSongs(key: string, viewerId: number): Promise<BrowsedSong[]> {
    const index = await this.current();
    const album = index.albums.get(key);
    if (!album) return [];
    const records = await this.records(index, album.songIds, viewerId);
    const title = (song: BrowsedSong) => (song.title ?? song.displayName).toLowerCase();
    // A song without a disc number is on the first disc.
    return records.sort(
      (a, b) =>
        (a.discNumber ?? 1) - (b.discNumber ?? 1) ||
        (a.trackNumber ?? 0) - (b.trackNumber ?? 0) ||
        (title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0) ||
        a.id - b.id,
    );
  }

  async songs(ids: readonly number[], viewerId: number): Promise<BrowsedSong[]> {
    return this.records(await this.current(), ids, viewerId);
  }

  /** The browse keys of songs, from the index as it is now (built or brought up to date first). */
  async keysOf(songIds: readonly number[]): Promise<Map<number, SongKeys>> {
    return keysIn(await this.current(), songIds);
  }

  /**
   * The browse keys of songs for song lists' artist and album links, which never wait for the
   * index to be built (seconds at 50,000 songs): after KEYS_WAIT_MS they are answered from the
   * index as it was (not built yet: no keys), and the build or update goes on for the next list.
   * On PGlite the build reads the songs in pages, so other calls are not held up behind it.
   * Anything whose answer depends on the albums (ReplayGain, similar songs) uses keysOf.
   */
  async linkKeysOf(songIds: readonly number[]): Promise<Map<number, SongKeys>> {
    const built = this.index;
    const fresh = this.current();
    // A failed build is the next call's to try again; this list goes without links meanwhile.
    fresh.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), KEYS_WAIT_MS)));
    const index =
      (await Promise.race([fresh, late])
        .catch(() => undefined)
        .finally(() => clearTimeout(timer))) ?? built;
    return index ? keysIn(index, songIds) : new Map();
  }

  async albumsOfSongs(songIds: Iterable<number>, filter: FolderFilter = {}): Promise<AlbumRecord[]> {
    const index = await this.current();
    const albums = new Set<AlbumEntry>();
    for (const id of songIds) {
      const album = index.songs.get(id)?.album;
      if (album && (filter.musicFolderId === undefined || album.folders.has(filter.musicFolderId))) albums.add(album);
    }
    return [...albums].map(toAlbumRecord);
  }

  /**
   * `starred` is the albums with a song the viewer liked, newest like first (likes are private).
   * `byGenre` matches an album with a song of that genre, case and accents folded; `byYear`
   * leaves albums without a year out. A folder narrows each list to the albums with a song in it.
   */
  async albumList(
    kind: LibraryListKind,
    page: Page,
    options: { viewerId: number; fromYear?: number; toYear?: number; genre?: string } & FolderFilter,
  ): Promise<AlbumRecord[]> {
    const index = await this.current();
    const folder = options.musicFolderId;
    switch (kind) {
      case 'random':
        return sample(index.inFolder('albums', [...index.albums.values()], folder), clampPage(page).count).map(toAlbumRecord);
      case 'newest':
        return paged(index.inFolder('albumsNewest', index.albumsNewest(), folder), page).map(toAlbumRecord);
      case 'alphabeticalByName':
        return paged(index.inFolder('albumsByName', index.albumsByName(), folder), page).map(toAlbumRecord);
      case 'alphabeticalByArtist':
        return paged(index.inFolder('albumsByArtist', index.albumsByArtist(), folder), page).map(toAlbumRecord);
      case 'byYear': {
        const from = options.fromYear ?? Number.MIN_SAFE_INTEGER;
        const to = options.toYear ?? Number.MAX_SAFE_INTEGER;
        const [low, high] = from <= to ? [from, to] : [to, from];
        const albums = index.inFolder('albumsByYear', index.albumsByYear(), folder).filter((album) => {
          const year = yearOf(album) ?? 0;
          return year >= low && year <= high;
        });
        return paged(from > to ? albums.reverse() : albums, page).map(toAlbumRecord);
      }
      case 'byGenre': {
        const genre = options.genre === undefined ? undefined : await this.foldOne(options.genre);
        return paged(
          index.inFolder('albumsByArtist', index.albumsByArtist(), folder).filter((album) => genre !== undefined && album.genres.has(genre)),
          page,
        ).map(toAlbumRecord);
      }
      case 'starred':
        return paged(await this.likedAlbums(index, options.viewerId, folder), page).map(toAlbumRecord);
    }
  }

  async genres(): Promise<{ name: string; songCount: number; albumCount: number }[]> {
    return (await this.current()).genresByName().map((genre) => ({ name: genre.name, songCount: genre.songCount, albumCount: genre.albums.size }));
  }

  /** The genre's songs (case and accents folded) in id order: pages stay put while songs are added. */
  async songsByGenre(genre: string, page: Page, viewerId: number, filter: FolderFilter = {}): Promise<BrowsedSong[]> {
    const index = await this.current();
    const folded = await this.foldOne(genre);
    const ids = index.songIdsIn(filter.musicFolderId).filter((id) => index.songs.get(id)?.genres.includes(folded));
    return this.records(index, paged(ids, page), viewerId);
  }

  async randomSongs(options: { size: number; genre?: string; fromYear?: number; toYear?: number } & FolderFilter, viewerId: number): Promise<BrowsedSong[]> {
    const index = await this.current();
    const genre = options.genre === undefined ? undefined : await this.foldOne(options.genre);
    const hasYears = options.fromYear !== undefined || options.toYear !== undefined;
    const from = options.fromYear ?? Number.MIN_SAFE_INTEGER;
    const to = options.toYear ?? Number.MAX_SAFE_INTEGER;
    const ids = index.songIdsIn(options.musicFolderId).filter((id) => {
      const song = index.songs.get(id);
      if (!song) return false;
      if (genre !== undefined && !song.genres.includes(genre)) return false;
      return !hasYears || (song.year !== null && song.year >= Math.min(from, to) && song.year <= Math.max(from, to));
    });
    const size = Math.max(0, Math.min(MAX_RANDOM_SONGS, Math.trunc(options.size)));
    return this.records(index, sample(ids, size), viewerId);
  }

  /**
   * Artists by name; albums by name or artist name; songs as the music page's search finds them
   * (title, artist, album, a typo forgiven), in its title order. An empty query lists everything:
   * artists by name, albums by artist and name, songs by id (what a client syncing the whole
   * library in pages of 500 needs: each page is a slice of the ids, no sort of 50,000 songs).
   * A folder narrows all three (a worded search's songs after the library's page: a page may then be short).
   */
  async search(
    query: string,
    pages: { artists: Page; albums: Page; songs: Page },
    viewerId: number,
    filter: FolderFilter = {},
  ): Promise<{ artists: ArtistRecord[]; albums: AlbumRecord[]; songs: BrowsedSong[] }> {
    const index = await this.current();
    const folder = filter.musicFolderId;
    const artistList = index.inFolder('artists', index.artistsByName(), folder);
    const albumList = index.inFolder('albumsByArtist', index.albumsByArtist(), folder);
    const trimmed = query.trim();
    if (trimmed === '') {
      return {
        artists: paged(artistList, pages.artists).map(toArtistRecord),
        albums: paged(albumList, pages.albums).map(toAlbumRecord),
        songs: await this.records(index, paged(index.songIdsIn(folder), pages.songs), viewerId),
      };
    }
    const words = [...new Set((await this.foldOne(trimmed)).split(/\s+/u).filter((word) => word.length > 0))];
    const matches = (text: string) => words.every((word) => text.includes(word));
    const artists = artistList.filter((artist) => matches(artist.fold));
    const albums = albumList.filter((album) => matches(`${album.fold} ${album.artist.fold}`));
    const songPage = clampPage(pages.songs);
    const found =
      songPage.count === 0 ? [] : (await this.deps.songs.list(viewerId, { q: trimmed, sort: 'title', limit: songPage.count, offset: songPage.offset })).records;
    const ids = found.map((song) => song.id).filter((id) => folder === undefined || index.songs.get(id)?.folder === folder);
    return {
      artists: paged(artists, pages.artists).map(toArtistRecord),
      albums: paged(albums, pages.albums).map(toAlbumRecord),
      songs: await this.records(index, ids, viewerId),
    };
  }

  /**
   * Encore likes songs only: an album or an artist counts as starred when the viewer liked every
   * one of its present songs (a client's starred albums then play as the viewer's favourites).
   */
  async starred(viewerId: number, filter: FolderFilter = {}): Promise<{ songs: BrowsedSong[]; albums: AlbumRecord[]; artists: ArtistRecord[] }> {
    const index = await this.current();
    const folder = filter.musicFolderId;
    const likes = await this.deps.repository.likes(viewerId);
    const liked = new Set(likes.map((like) => like.songId));
    const albums = index.inFolder('albumsByArtist', index.albumsByArtist(), folder).filter((album) => album.songIds.every((id) => liked.has(id)));
    const artists = index
      .inFolder('artists', index.artistsByName(), folder)
      .filter((artist) => artist.albums.every((album) => album.songIds.every((id) => liked.has(id))));
    const songIds = likes.map((like) => like.songId).filter((id) => folder === undefined || index.songs.get(id)?.folder === folder);
    return { songs: await this.records(index, songIds, viewerId), albums: albums.map(toAlbumRecord), artists: artists.map(toArtistRecord) };
  }

  async likedSongIds(viewerId: number): Promise<number[]> {
    const index = await this.current();
    return (await this.deps.repository.likes(viewerId)).flatMap((like) => (index.songs.has(like.songId) ? [like.songId] : []));
  }

  async findArtists(options: { q?: string; order: ArtistOrder; page: Page }): Promise<{ records: ArtistRecord[]; more: boolean }> {
    const index = await this.current();
    const found = findArtists(index, await this.wordsOf(options.q), options.order, options.page);
    return { records: found.list.map(toArtistRecord), more: found.more };
  }

  async findAlbums(query: AlbumQuery): Promise<{ records: AlbumRecord[]; more: boolean }> {
    const index = await this.current();
    const genre = query.genre?.trim() ? await this.foldOne(query.genre.trim()) : undefined;
    const found = findAlbums(index, await this.wordsOf(query.q), genre, query);
    return { records: found.list.map(toAlbumRecord), more: found.more };
  }

  async appearsOn(artistKey: string): Promise<{ name: string; albums: AlbumRecord[] } | undefined> {
    const appearance = (await this.current()).appearances.get(artistKey);
    if (!appearance) return undefined;
    const year = (album: AlbumEntry) => yearOf(album) ?? Number.MAX_SAFE_INTEGER;
    const albums = [...appearance.albums].filter((album) => album.artist.key !== artistKey).sort((a, b) => year(a) - year(b) || (a.order < b.order ? -1 : 1));
    return { name: appearance.name, albums: albums.map(toAlbumRecord) };
  }

  async artistSongIds(artistKey: string): Promise<number[]> {
    const artist = (await this.current()).artists.get(artistKey);
    return artist ? artist.albums.flatMap((album) => album.songIds) : [];
  }

  /** The distinct words of a query, folded as search folds them. */
  private async wordsOf(query: string | undefined): Promise<string[]> {
    const trimmed = query?.trim() ?? '';
    if (trimmed === '') return [];
    return [...new Set((await this.foldOne(trimmed)).split(/\s+/u).filter((word) => word.length > 0))];
  }

  /** Albums with a song the viewer liked, newest like first. */
  private async likedAlbums(index: BrowseIndex, viewerId: number, folder: number | undefined): Promise<AlbumEntry[]> {
    const albums = new Set<AlbumEntry>();
    // Likes come newest first: an album's place is that of its newest like.
    for (const like of await this.deps.repository.likes(viewerId)) {
      const album = index.songs.get(like.songId)?.album;
      if (album && (folder === undefined || album.folders.has(folder))) albums.add(album);
    }
    return [...albums];
  }

  /** The present songs with these ids as the viewer sees them, in this order (repeats kept), their keys from the index. */
  private async records(index: BrowseIndex, ids: readonly number[], viewerId: number): Promise<BrowsedSong[]> {
    if (ids.length === 0) return [];
    const rows = new Map((await this.deps.repository.page(ids, viewerId)).map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      const song = index.songs.get(id);
      // A song added after the index was read has no keys yet: it is left out until the next call.
      // The row is this call's own: its keys are added to it rather than to a copy.
      return row && song ? [Object.assign(row, { albumKey: song.album.key, artistKey: song.album.artist.key })] : [];
    });
  }

  private async foldOne(value: string): Promise<string> {
    return (await this.deps.repository.fold([value])).get(value) ?? value.toLowerCase();
  }

  /** The index as the songs are now (see the class comment); concurrent calls share one build. */
  private async current(): Promise<BrowseIndex> {
    // Nothing announced since the index was last known good: it still is, without a query.
    if (this.index && this.goodAt === this.changes && (await this.listen()) && this.goodAt === this.changes) return this.fresh(this.index);
    const seen = this.changes;
    const index = await this.matching();
    // Known good as of `seen` (the version was read after it); an announcement since makes the next call read again.
    if (this.goodAt < seen) this.goodAt = seen;
    return index;
  }

  /** Listening from the first call on; false when there is nothing to listen to or it failed (every call then reads the version). */
  private listen(): Promise<boolean> {
    const listen = this.deps.listenForChanges;
    if (!listen) return Promise.resolve(false);
    this.listening ??= listen(() => {
      this.changes += 1;
    }).then(
      () => true,
      (error: unknown) => {
        this.deps.logger?.warn({ err: error }, 'could not listen for song changes; the browse index checks the songs on every call');
        return false;
      },
    );
    return this.listening;
  }

  /** The index as it is, and a rebuild in the background (for the next calls) once it is `maxAgeMs` old: a retag in place changes no version. */
  private fresh(index: BrowseIndex): BrowseIndex {
    if (Date.now() - this.builtAt > (this.deps.maxAgeMs ?? 60_000) && !this.building) {
      this.building = this.build(true).finally(() => (this.building = undefined));
      this.building.catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'rebuilding the song-browse index failed'));
    }
    return index;
  }

  /** The index matching the songs' version read now (extended or rebuilt when it does not). */
  private async matching(): Promise<BrowseIndex> {
    if (this.deps.listenForChanges) await this.listen();
    const seen = this.changes;
    const version = await this.deps.repository.version();
    if (this.index && this.version && sameVersion(version, this.version)) return this.fresh(this.index);
    while (this.building) await this.building.catch(() => undefined);
    if (this.index && this.version && sameVersion(version, this.version)) return this.index;
    this.building = this.build(false, { version, seen }).finally(() => (this.building = undefined));
    return this.building;
  }

  /**
   * The songs' version and the present songs above `afterId`, as one consistent reading. Where
   * changes are announced (PGlite, whose one connection a single read of every song would hold
   * for a second at 50,000 songs), the rows are read in pages with other queries between them,
   * and again when a change was announced meanwhile (announcements reach this process before the
   * writing query's own answer); `known` is a version read a moment ago with the announcements
   * counted then. Elsewhere, and after three readings spoilt by changes, one snapshot.
   */
  private async read(afterId: number, known?: { version: BrowseVersion; seen: number }): Promise<{ version: BrowseVersion; rows: BrowseSongRow[] }> {
    if (this.deps.listenForChanges && (await this.listen())) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const seen = attempt === 0 && known ? known.seen : this.changes;
        const version = attempt === 0 && known ? known.version : await this.deps.repository.version();
        const rows = await this.deps.repository.rowsInPages(afterId);
        if (this.changes === seen) return { version, rows };
      }
    }
    return this.deps.repository.snapshot(afterId);
  }

  /** Extends the index when songs were only added since (the new rows alone are read), else builds it anew. */
  private async build(full: boolean, known?: { version: BrowseVersion; seen: number }): Promise<BrowseIndex> {
    const previous = full ? undefined : this.index;
    const before = this.version;
    if (previous && before) {
      const { version, rows } = await this.read(previous.songIds.at(-1) ?? 0, known);
      // Only additions (none deleted, hidden or shown again): every row above the last id is new.
      const onlyAdded =
        version.missingCount === before.missingCount && version.missingIdSum === before.missingIdSum && version.count - before.count === rows.length;
      // Songs that turn a title already filed into a compilation (or out of one) need a new index.
      if (onlyAdded && previous.add(rows, await this.deps.repository.fold(namesOf(rows)))) {
        this.version = version;
        return previous;
      }
    }
    const { version, rows } = await this.read(0, known);
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

function keysIn(index: BrowseIndex, songIds: readonly number[]): Map<number, SongKeys> {
  const keys = new Map<number, SongKeys>();
  for (const id of songIds) {
    const song = index.songs.get(id);
    if (song) keys.set(id, { albumKey: song.album.key, artistKey: song.album.artist.key, trackArtistKey: song.artistKey });
  }
  return keys;
}
