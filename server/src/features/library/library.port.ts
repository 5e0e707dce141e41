import type { AudioTags } from '../../platform/media/audio-tags.js';
import type { ReplayGain, SongAnalysis } from '@encore/common/analysis.contract';
import { definePort } from '../../modules/module.js';
import type { CoverImage, ShareableSong } from './library.service.js';

export type { CoverImage, ShareableSong };
export { PLAY_URL_TTL_SECONDS } from './library.service.js';
/** The REST contract's Song of a record, for modules whose answers hold songs (playlists, discovery). */
export { toSong, toSongListEntry } from './library.mapper.js';

/** A song of the collection as one viewer sees it: what its upload and tags recorded, its uploader's name and the viewer's like. */
export interface SongRecord {
  id: number;
  /** The uploader; null for a song of a music folder (the instance's). */
  ownerId: number | null;
  /** The uploader's user name; empty for a song of a music folder. */
  uploadedBy: string;
  /** Whether the viewer liked it. */
  isLiked: boolean;
  /** When the viewer liked it (absent when they did not). */
  likedAt?: Date;
  displayName: string;
  /** The name the file had on the uploader's disk. */
  fileName: string;
  /** The MIME type detected from the bytes. */
  fileType: string;
  /** Where the audio is stored (the last part of its stream URL). */
  storageKey: string;
  size: number;
  uploadedAt: Date;
  folderId: number;
  title: string | null;
  artist: string | null;
  album: string | null;
  albumArtist: string | null;
  genre: string | null;
  year: number | null;
  trackNumber: number | null;
  discNumber: number | null;
  durationSeconds: number | null;
  bitrate: number | null;
  sampleRate: number | null;
  /** The lyrics' plain text, if any. */
  transcript: string | null;
  hasCover: boolean;
  /** The browse pages the song belongs to (issue 38): its artist's and its album's ids; absent until the browse index has the song. */
  browseIds?: { artistId: string; albumId: string };
}

/**
 * The shared collection as other modules see it. The library alone reads and writes the songs
 * and likes tables; playlists, sharing, lyrics, discovery and clips ask here.
 */
export interface SongCatalogue {
  /** One song as `viewerId` sees it (their like); a not-found error when it does not exist. */
  get(id: number, viewerId: number): Promise<SongRecord>;
  /** The songs with these ids that still exist, as `viewerId` sees them, in no particular order. */
  songsByIds(ids: number[], viewerId: number): Promise<SongRecord[]>;
  /** The display names of the songs with these ids that still exist, in one query (lists that show only names). */
  displayNames(ids: readonly number[]): Promise<Map<number, string>>;
  /** A signed stream URL valid for `expiresInSeconds`. */
  streamUrl(songId: number, expiresInSeconds: number): Promise<string>;
  /** What the public share page shows of a song; undefined when it does not exist. */
  shareable(id: number): Promise<ShareableSong | undefined>;
  /** Signed URLs that work without an account. */
  publicMedia(id: number, expiresInSeconds: number): Promise<{ streamUrl: string; coverUrl: string | null }>;
  /** The song stored under a file key (the last part of its stream URL). */
  songIdByStorageKey(storageKey: string): Promise<number | undefined>;
  /** Where a present song's audio is stored and what it is, for modules that read or serve the file (analysis, transcription, streaming), in one lean read. */
  audioFile(songId: number): Promise<AudioFile | undefined>;
  /** Likes or unlikes the song for the user, whatever it was (the same favourites as the web app); not found when it does not exist. */
  setLiked(songId: number, userId: number, liked: boolean): Promise<void>;
  /** The song's cover (`thumb` from the thumbnails): undefined when it has none; not found when the song does not exist. */
  coverOfSong(songId: number, size: 'thumb' | 'full'): Promise<CoverImage | undefined>;
}

export interface AudioFile {
  storageKey: string;
  fileType: string;
  fileName: string;
  /** bit/s, as the tags gave it; null when unknown. */
  bitrate: number | null;
  durationSeconds: number | null;
}

/** A song just added to the collection, with the tags its upload read (absent when none could be read). */
export interface AddedSong {
  songId: number;
  tags: AudioTags | undefined;
}

/** Tells other modules of new songs; a listener's failure is logged and never fails the upload. */
export interface SongEvents {
  /**
   * `listener` hears of each new song. Many songs at once (a music folder's scan) go to `batch`
   * in one call when given (one analysis backfill instead of a job per song), else to
   * `listener` one by one.
   */
  onSongAdded(listener: (song: AddedSong) => Promise<void>, batch?: (songs: AddedSong[]) => Promise<void>): void;
}

/** A file of a music folder as a song: what its tags say and where it is. */
export interface FolderSongValues {
  /** The file's name (downloads are offered under it). */
  fileName: string;
  fileType: string;
  /** `music/…`: resolved by the music folders' storage mount. */
  storageKey: string;
  size: number;
  /** The music folder's place in MUSIC_FOLDERS, from 1. */
  folderId: number;
  tags: AudioTags;
  coverKey: string | null;
  coverThumbKey: string | null;
}

/**
 * The songs of music folders, which have no uploader (the instance's), as their scanner writes
 * them. A missing file's song is hidden, not deleted, until the grace period ends.
 */
export interface FolderSongs {
  /** Adds the songs in one statement per thousand; their ids in order. Nobody is told yet (see `announce`). */
  add(songs: readonly FolderSongValues[]): Promise<number[]>;
  /** Tells other modules (lyrics, analysis) of songs added, once their files can be read through their storage keys. */
  announce(songs: AddedSong[]): Promise<void>;
  /** A retagged or replaced file: its tags, size and cover; the song keeps its likes, playlist places, lyrics. */
  update(songId: number, values: FolderSongValues): Promise<void>;
  /** Hides the songs (their files are missing) or, with null, shows them again. */
  setMissing(songIds: readonly number[], since: Date | null): Promise<void>;
  /** Deletes the songs for good (likes and playlist places go with them); what the rows held in storage (covers) is left to the orphan sweep. */
  remove(songIds: readonly number[]): Promise<void>;
}

/** Parts other modules add to a song's detail answer (GET /api/songs/:id). */
export interface SongDetailSources {
  /** The song's sonic analysis, shown on the song page. */
  provideAnalysis(source: (songId: number) => Promise<SongAnalysis | null>): void;
  /** The song's ReplayGain values, null until measured (the player levels songs by them). */
  provideReplayGain(source: (songId: number) => Promise<ReplayGain | null>): void;
  /** The viewer's plays of the song: how many, and the last (null when never). */
  providePlays(source: (songId: number, viewerId: number) => Promise<SongPlayFacts>): void;
}

/** A viewer's plays of a song, as the song detail answer shows them. */
export interface SongPlayFacts {
  playCount: number;
  lastPlayedAt: Date | null;
}

/** Whether a direct upload to local storage may still be written (its upload is open). */
export interface UploadGate {
  assertUploadOpen(key: string): Promise<void>;
}

export const songCataloguePort = definePort<SongCatalogue>(
  'song-catalogue',
  'The songs of the shared collection: by id, by ids, stream and public links, the stored file.',
);
export const songEventsPort = definePort<SongEvents>('song-events', 'Hears of each song added to the collection, with the tags its upload read.');
export const songDetailSourcesPort = definePort<SongDetailSources>(
  'song-detail-sources',
  "Adds a module's part to the song detail answer (the sonic analysis, ReplayGain, the viewer's plays).",
);
export const folderSongsPort = definePort<FolderSongs>('folder-songs', 'Adds, updates, hides and removes the songs of music folders (no uploader).');
export const uploadGatePort = definePort<UploadGate>('upload-gate', 'Accepts a direct upload to local storage only while its upload is open.');

/** Which song a URL names (its page, its API path or a signed play URL). */
export { songReferenceFromUrl, type SongReference } from './song-reference.js';

/** A song's tags and the lyrics' plain text, whoever views it: what ranking reads of thousands of songs at once. */
export interface SongTags {
  id: number;
  displayName: string;
  title: string | null;
  artist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  durationSeconds: number | null;
  /** The lyrics' plain text (the database keeps it equal to the lyrics module's text), or from the tags of the upload. */
  transcript: string | null;
}

/** What lyrics and discovery read of one song, whoever views it: its tags, its uploader and its file. */
export interface SongFacts extends SongTags {
  /** Null for a song of a music folder. */
  ownerId: number | null;
  fileName: string;
  fileType: string;
  storageKey: string;
}

/** The songs as facts, without a viewer: one, thousands at once (ranking), their ids in pages (backfills), how many. */
export interface SongFactsSource {
  /** Undefined when it does not exist. */
  song(id: number): Promise<SongFacts | undefined>;
  /** The tags of the songs with these ids that exist, in no particular order, in one query; `transcriptChars` cuts the lyrics' text. */
  songs(ids: readonly number[], options?: { transcriptChars?: number }): Promise<SongTags[]>;
  /** Up to `limit` song ids greater than `afterId`, in id order: a backfill resumes from the last id it did. */
  idsAfter(afterId: number, limit: number): Promise<number[]>;
  count(): Promise<number>;
  /** The songs each value of `query` names, all in one query (an imported playlist's entries). */
  lookUp(query: SongLookup): Promise<SongLookupMatch[]>;
}

/** Values that may name songs, by kind: what an imported playlist's entries say of their songs. */
export interface SongLookup {
  ids: readonly number[];
  storageKeys: readonly string[];
  /** Compared case-insensitively with the names the files had on the uploader's disk. */
  fileNames: readonly string[];
  /** Compared folded (case and accents), as search folds. */
  artistTitles: readonly { artist: string; title: string }[];
}

/** A song that the value at `index` of `kind`'s list names. */
export interface SongLookupMatch {
  kind: 'id' | 'storageKey' | 'fileName' | 'artistTitle';
  index: number;
  songId: number;
  durationSeconds: number | null;
}

export const songFactsPort = definePort<SongFactsSource>(
  'song-facts',
  "Songs' files, tags and lyrics' text without a viewer: one, many at once, ids in pages, the count, those a playlist file's entries name.",
);

/** The song key a URL path ends with (a play URL's last part), or undefined: what a song's key looks like is the library's to say. */
export { songKeyAtEndOf } from './upload-key.js';

/**
 * An album as the tags make it: its artist (the album artist, else the artist of its songs) and
 * its name. Songs without an album tag are grouped per artist under an empty name.
 */
export interface AlbumRecord {
  /** Stable for the same artist and album (case and accents folded): what clients keep as the album's id. */
  key: string;
  artist: string;
  name: string;
  songCount: number;
  durationSeconds: number;
  year: number | null;
  genre: string | null;
  /** Every genre of its songs (each value of multi-valued tags), as first spelled. */
  genres: readonly string[];
  /** When its first song was added. */
  addedAt: Date;
  /** A song of it with a cover (the album's cover), if any. */
  coverSongId: number | null;
  /** Its artist's key (what ArtistRecord.key is). */
  artistKey: string;
  /** Its present songs' ids, in the order they were added. */
  songIds: readonly number[];
  /** The first MusicBrainz release id its songs are tagged with. */
  musicBrainzId: string | null;
}

/** An artist as the tags make it (album artist, else artist). */
export interface ArtistRecord {
  /** Stable for the same name (case and accents folded). */
  key: string;
  name: string;
  albumCount: number;
  songCount: number;
  coverSongId: number | null;
  /** A song with a cover of each of its first albums that have one (up to four): a mosaic of covers. */
  albumCoverSongIds: readonly number[];
  /** The first MusicBrainz artist id its songs are tagged with. */
  musicBrainzId: string | null;
}

export const ALBUM_LIST_KINDS = [
  'random',
  'newest',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'byYear',
  'byGenre',
  'starred',
  'frequent',
  'recent',
  'highest',
] as const;
export type AlbumListKind = (typeof ALBUM_LIST_KINDS)[number];

/**
 * A song as the ID3 browse model lists it: the tags and file facts a client's song entry shows,
 * its album and artist keys, and the viewer's like. No lyrics and no uploader: a page of 500 of
 * these is what a client syncing the whole library reads a hundred times.
 */
export interface BrowsedSong {
  id: number;
  displayName: string;
  fileName: string;
  fileType: string;
  size: number;
  uploadedAt: Date;
  title: string | null;
  artist: string | null;
  album: string | null;
  albumArtist: string | null;
  genre: string | null;
  year: number | null;
  trackNumber: number | null;
  discNumber: number | null;
  durationSeconds: number | null;
  bitrate: number | null;
  sampleRate: number | null;
  hasCover: boolean;
  /** The MusicBrainz recording id when tagged. */
  musicBrainzId: string | null;
  /** 0 for an upload, else its music folder's place in MUSIC_FOLDERS (from 1). */
  musicFolderId: number;
  albumKey: string;
  artistKey: string;
  isLiked: boolean;
  /** When the viewer liked it (absent when they did not). */
  likedAt?: Date;
}

/** Narrows a browse call to one library: 0 the uploads, n the n-th music folder; absent, all of them. */
export interface FolderFilter {
  musicFolderId?: number;
}

/** A page: at most `count` from `offset`. */
export interface Page {
  count: number;
  offset: number;
}

/**
 * The collection by artist, album and genre (the Subsonic API's ID3 model), built from the
 * songs' tags, present songs only. Songs come as `viewerId` sees them (their likes).
 */
/** Where the browse model files a song. */
export interface SongKeys {
  albumKey: string;
  /** The album's artist (what Subsonic gives as a song's artistId). */
  artistKey: string;
  /** The song's own first track artist, else the album's artist: whom a song card names. */
  trackArtistKey: string;
}

export interface SongBrowse {
  /** Every artist (with a song in the folder, when narrowed), by name (folded). */
  artists(filter?: FolderFilter): Promise<ArtistRecord[]>;
  artist(key: string): Promise<ArtistRecord | undefined>;
  albumsOf(artistKey: string): Promise<AlbumRecord[]>;
  album(key: string): Promise<AlbumRecord | undefined>;
  /** The album's songs in disc and track order (then title). */
  albumSongs(key: string, viewerId: number): Promise<BrowsedSong[]>;
  /** The songs with these ids that exist, in this order (repeats kept). */
  songs(ids: readonly number[], viewerId: number): Promise<BrowsedSong[]>;
  /** The album key and artist keys of each of these songs (a Subsonic song's `albumId` and `artistId`, and the track artist's). */
  keysOf(songIds: readonly number[]): Promise<Map<number, SongKeys>>;
  /** The same for song lists' links: never waits for the index's first build (none yet: no keys). */
  linkKeysOf(songIds: readonly number[]): Promise<Map<number, SongKeys>>;
  /** The albums holding any of these songs (in the folder, when narrowed), in no particular order. */
  albumsOfSongs(songIds: Iterable<number>, filter?: FolderFilter): Promise<AlbumRecord[]>;
  /**
   * getAlbumList2 by the library alone: `starred` is the viewer's (albums with a liked song,
   * newest like first); `byYear` from `fromYear` to `toYear` (descending when from > to),
   * `byGenre` by `genre`. The lists by plays and ratings (`frequent`, `recent`, `highest`) are
   * the caller's, over albumsOfSongs.
   */
  albumList(
    kind: Exclude<AlbumListKind, 'frequent' | 'recent' | 'highest'>,
    page: Page,
    options: { viewerId: number; fromYear?: number; toYear?: number; genre?: string } & FolderFilter,
  ): Promise<AlbumRecord[]>;
  genres(): Promise<{ name: string; songCount: number; albumCount: number }[]>;
  songsByGenre(genre: string, page: Page, viewerId: number, filter?: FolderFilter): Promise<BrowsedSong[]>;
  randomSongs(options: { size: number; genre?: string; fromYear?: number; toYear?: number } & FolderFilter, viewerId: number): Promise<BrowsedSong[]>;
  /**
   * search3: every word in the name (artists, albums) or the title, artist or album (songs),
   * folded as the music page's search; an empty query lists everything, in a stable order, paged.
   */
  search(
    query: string,
    pages: { artists: Page; albums: Page; songs: Page },
    viewerId: number,
    filter?: FolderFilter,
  ): Promise<{ artists: ArtistRecord[]; albums: AlbumRecord[]; songs: BrowsedSong[] }>;
  /** The ids of the songs the viewer liked, newest like first (of present songs). */
  likedSongIds(viewerId: number): Promise<number[]>;
  /** A page of album artists matching every word of `q` (folded), in an order; `more` when a next page exists. */
  findArtists(options: { q?: string; order: ArtistOrder; page: Page }): Promise<{ records: ArtistRecord[]; more: boolean }>;
  /** A page of albums narrowed by words (name or artist), genre (folded), years (either end open) and artist. */
  findAlbums(options: AlbumQuery): Promise<{ records: AlbumRecord[]; more: boolean }>;
  /** The albums of other artists with a song whose artist tags name this artist; undefined when no song names them. */
  appearsOn(artistKey: string): Promise<{ name: string; albums: AlbumRecord[] } | undefined>;
  /** The present song ids of an artist's own albums. */
  artistSongIds(artistKey: string): Promise<number[]>;
  /** The viewer's liked songs, newest like first, and the albums and artists all of whose songs they liked. */
  starred(viewerId: number, filter?: FolderFilter): Promise<{ songs: BrowsedSong[]; albums: AlbumRecord[]; artists: ArtistRecord[] }>;
}

/** An order of artists or albums: by the index's own facts, or by a score per song (the viewer's plays), most first. */
export type ArtistOrder = 'name' | 'recent' | { scores: ReadonlyMap<number, number> };
export type AlbumOrder = 'name' | 'recent' | 'artist' | 'year' | { scores: ReadonlyMap<number, number> } | { seed: number };

export interface AlbumQuery {
  q?: string;
  genre?: string;
  yearFrom?: number;
  yearTo?: number;
  artistKey?: string;
  order: AlbumOrder;
  page: Page;
}

export const songBrowsePort = definePort<SongBrowse>(
  'song-browse',
  'The collection by artist, album and genre (ID3 model from the tags): lists, pages, search, random, starred.',
);
