import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { lyricsTextOf } from '@encore/common/lyrics-text.decode';
import type { ScanProblem } from '@encore/common/music-folders.contract';
import type { Logger } from '../../platform/logger.js';
import { sniffAudioFile } from '../../platform/media/audio-sniffer.js';
import { readAudioTags, type AudioTags } from '../../platform/media/audio-tags.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { completedByFfmpeg, ffmpegWouldComplete } from '../../platform/media/ffmpeg.measure.js';
import { DEFAULT_COVER_LIMITS, renderCover, UnusableCoverError, type CoverLimits } from '../../platform/media/cover-image.js';
import type { ClosableSource } from '../../platform/media/byte-source.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { FolderSongs, FolderSongValues } from '../library/library.port.js';
import { coverAmong, lyricsFileFor } from '../../platform/media/side-files.js';
import { absolutePath, AUDIO_TYPES, extensionOf, fingerprintOf, relativePath } from './folder-files.js';
import { localFile } from './local-file.js';
import { LINK_OUTSIDE, OutsideFoldersError, type FolderBounds } from './folder-bounds.js';
import { isGone, KEPT_AS_THEY_WERE, unreadableReason, walkMusicFolder, type WalkedDirectory, type WalkedFile } from './folder-walk.js';
import { emptyCounts, type KnownFile, type MusicFoldersRepository, type NewFolderFile, type ScanCounts } from './music-folders.repository.js';

export const NOT_AUDIO = 'Not an audio file (its content is not a format Encore reads).';
export const UNREADABLE = 'The file could not be read: it may be damaged or truncated.';
export const NO_AUDIO_STREAM = 'No playable audio was found in this file.';
export const HAS_VIDEO = 'A video file, not a song.';
export const FOLDER_UNAVAILABLE = 'The folder cannot be read (not mounted, removed or not allowed): its songs are kept as they were.';
export const FOLDER_EMPTY = 'The folder is empty: taken as not mounted, its songs are kept as they were.';
export const FOLDER_NOT_CONFIGURED = 'The folder is no longer in MUSIC_FOLDERS: its songs are hidden, and removed after the grace period.';

/** A part of a folder to scan: one directory (its files only) or a whole subtree. */
export interface ScanScope {
  folder: string;
  /** Relative to the folder ('' for the folder itself). */
  path: string;
  recursive: boolean;
}

export interface FolderScannerDeps {
  repository: MusicFoldersRepository;
  folderSongs: FolderSongs;
  storage: Storage;
  logger: Logger;
  /** The music folders, absolute, in MUSIC_FOLDERS order (a song's folderId is its place, from 1). */
  folders: readonly string[];
  /** Where the folders' files may really be (links resolved): every read of the scan is checked by it. */
  bounds: FolderBounds;
  missingGraceMs: number;
  tagTimeoutMs?: number;
  coverLimits?: CoverLimits;
  /** Measures what the tags do not say (a length, a cover kept as a picture stream); without it those stay unknown. */
  ffmpeg?: Pick<Ffmpeg, 'run' | 'start'>;
  /** Told of the counts now and then while a scan runs (the status row, the health check). */
  onProgress?: (counts: ScanCounts) => Promise<void>;
  /** Playlist files found in the folders (.m3u/.m3u8), for the module to import. */
  /**
   * The playlist files a scan found in a folder. `complete`: the whole folder was walked and every
   * part of it could be read, so a playlist file not among `files` is gone (a partial scan, or an
   * unreadable part, says nothing about the files it did not see).
   */
  onPlaylists?: (folder: string, files: readonly WalkedFile[], options: { complete: boolean }) => Promise<ScanProblem[]>;
  now?: () => Date;
}

export interface ScanResult {
  counts: ScanCounts;
  problems: ScanProblem[];
}

/** Files read at once: parsing is mostly waiting for the disk, and two cores stay busy with this many. */
const PARSE_CONCURRENCY = 8;
/** New songs inserted together (one statement, one announcement). */
const ADD_BATCH = 200;
const PROGRESS_EVERY_MS = 500;

type CoverKeys = { coverKey: string; coverThumbKey: string };

interface FileWork {
  folder: string;
  file: WalkedFile;
  directory: WalkedDirectory;
}

interface ReadFile {
  values: FolderSongValues;
  fingerprint: string;
  coverPath: string | null;
  lrcMtimeMs: number | null;
}

/**
 * Brings the songs of the music folders in line with the files there. Unchanged files (same size
 * and modification time) cost a stat; new and changed ones are read (tags, cover, lyrics beside);
 * a file found at a new place with the fingerprint of one gone from its old place is that file,
 * moved; files gone are hidden, and removed once missing for the grace period. A folder that
 * cannot be read or is empty as a whole is never taken as "everything removed".
 */
export class FolderScanner {
  private readonly covers = new Map<string, Promise<CoverKeys | null>>();
  /** Covers beside the songs by path, for the scan that runs (a picture changed since is read again by the next scan). */
  private readonly besideCovers = new Map<string, Promise<CoverKeys | null>>();

  constructor(private readonly deps: FolderScannerDeps) {}

  async scan(options: { scopes?: readonly ScanScope[]; signal?: AbortSignal } = {}): Promise<ScanResult> {
    const counts = emptyCounts();
    const problems: ScanProblem[] = [];
    const progress = throttled(this.deps.onProgress, counts);
    const now = this.now();
    const full = options.scopes === undefined;
    if (full) problems.push(...(await this.hideUnconfigured(counts, now)));
    const playlists: { folder: string; files: WalkedFile[]; complete: boolean }[] = [];
    this.besideCovers.clear();
    for (const folder of this.deps.folders) {
      const scopes = full ? [{ folder, path: '', recursive: true }] : options.scopes!.filter((scope) => scope.folder === folder);
      if (scopes.length === 0) continue;
      const found = { files: [] as WalkedFile[], complete: false };
      problems.push(...(await this.scanFolder(folder, scopes, counts, progress, full, found, options.signal)));
      // A full scan tells of a folder without playlist files too: its last .nsp may have gone.
      if (found.files.length > 0 || found.complete) playlists.push({ folder, ...found });
    }
    // Playlists once every folder's songs are in: an entry may name a song of another folder.
    for (const { folder, files, complete } of playlists)
      if (this.deps.onPlaylists) problems.push(...(await this.deps.onPlaylists(folder, files, { complete })));
    if (full) await this.removeExpired(now);
    await progress.flush();
    return { counts, problems };
  }

  private async scanFolder(
    folder: string,
    scopes: readonly ScanScope[],
    counts: ScanCounts,
    progress: Throttled,
    full: boolean,
    found: { files: WalkedFile[]; complete: boolean },
    signal: AbortSignal | undefined,
  ): Promise<ScanProblem[]> {
    const playlists = found.files;
    const problems: ScanProblem[] = [];
    const report = (file: string, reason: string) => problems.push({ folder, path: file, reason });
    try {
      const stats = await fs.stat(folder);
      if (!stats.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    } catch {
      report('', FOLDER_UNAVAILABLE);
      return problems;
    }
    const known = new Map((await this.deps.repository.filesOf(folder)).map((row) => [row.path, row]));
    const inScope = (file: string) => scopes.some((scope) => within(scope, file));
    const seen = new Set<string>();
    const fresh: FileWork[] = [];
    const changed: { work: FileWork; row: KnownFile }[] = [];
    const returned: KnownFile[] = [];
    let audioFiles = 0;
    /** Folders and files there but unreadable now: what is known below them is kept, not taken as deleted. */
    const unreadable: string[] = [];

    const realRoot = await fs.realpath(folder);
    for (const scope of scopes) {
      if (scope.path !== '') {
        // A part of the folder the watcher named: gone (its files are among the vanished below), or
        // reached through a link (the full scans walk each real folder once; a link would make copies).
        let real: string | undefined;
        try {
          real = await fs.realpath(absolutePath(folder, scope.path));
        } catch (error) {
          // Not gone, only unreadable now (a folder above it is not allowed): its songs stay as they were.
          if (!isGone(error)) {
            unreadable.push(scope.path);
            report(scope.path, `${unreadableReason(error)} ${KEPT_AS_THEY_WERE}`);
          }
          continue;
        }
        if (relativePath(realRoot, real) !== scope.path) continue;
      }
      const walkProblems = await walkMusicFolder(
        folder,
        absolutePath(folder, scope.path),
        async (directory) => {
          playlists.push(...directory.playlists);
          for (const file of directory.audio) {
            if (seen.has(file.path)) continue;
            seen.add(file.path);
            audioFiles += 1;
            counts.total += 1;
            const row = known.get(file.path);
            const lrcChanged = row !== undefined && row.lrcMtimeMs === null && lyricsFileFor(file.name, directory.names) !== undefined;
            if (!row) fresh.push({ folder, file, directory });
            else if (row.size !== file.size || row.mtimeMs !== file.mtimeMs || lrcChanged) changed.push({ work: { folder, file, directory }, row });
            else {
              if (row.missingSince !== null) returned.push(row);
              if (row.problem !== null) counts.failed += 1;
              counts.done += 1;
            }
          }
          progress.tick();
        },
        { recursive: scope.recursive, allows: (real) => this.deps.bounds.allows(real), ...(signal ? { signal } : {}) },
      );
      for (const problem of walkProblems) {
        report(problem.path, problem.reason);
        if (problem.unreadable) unreadable.push(problem.path);
      }
    }

    // Known files of the scanned part that the walk did not find: gone, or moved (below).
    const kept = (file: string) => unreadable.some((part) => part === '' || file === part || file.startsWith(`${part}/`));
    const vanished = [...known.values()].filter((row) => row.missingSince === null && inScope(row.path) && !seen.has(row.path) && !kept(row.path));
    if (full && audioFiles === 0 && vanished.length > 0) {
      // An unmounted share often shows as an empty folder: never "everything was deleted".
      report('', FOLDER_EMPTY);
      return problems;
    }
    found.complete = full && unreadable.length === 0;

    // Files back where they were.
    if (returned.length > 0) {
      await this.deps.repository.markMissing(
        returned.map((row) => row.id),
        null,
      );
      await this.deps.folderSongs.setMissing(songIdsOf(returned), null);
    }

    // New files: a moved one is recognised by its fingerprint, the others are read and added.
    const fingerprints = new Map<FileWork, string>();
    await eachLimited(fresh, PARSE_CONCURRENCY, async (work) => {
      try {
        fingerprints.set(work, await this.fingerprint(absolutePath(folder, work.file.path), work.file.size));
      } catch {
        // Unreadable: reading it below reports why.
      }
    });
    const vanishedByPrint = groupBy(vanished, (row) => row.fingerprint);
    const earlierMissing = groupBy(await this.deps.repository.missingByFingerprint([...new Set(fingerprints.values())]), (row) => row.fingerprint);
    const toAdd: FileWork[] = [];
    const renamed: { work: FileWork; row: KnownFile }[] = [];
    for (const work of fresh) {
      const print = fingerprints.get(work);
      const from = print === undefined ? undefined : (vanishedByPrint.get(print)?.shift() ?? earlierMissing.get(print)?.shift());
      if (!from) {
        toAdd.push(work);
        continue;
      }
      const index = vanished.indexOf(from as KnownFile);
      if (index >= 0) vanished.splice(index, 1);
      await this.deps.repository.updateFile(from.id, { folder, path: work.file.path, size: work.file.size, mtimeMs: work.file.mtimeMs, missingSince: null });
      if (from.songId !== null) await this.deps.folderSongs.setMissing([from.songId], null);
      // Under a new name: the song shows and downloads under it (its tags are read again with it).
      if (from.songId !== null && baseName(from.path) !== work.file.name) renamed.push({ work, row: from as KnownFile });
      counts.moved += 1;
      counts.done += 1;
      progress.tick();
    }

    // Files gone: hidden now (likes and playlist places wait for them), removed after the grace period.
    if (vanished.length > 0) {
      const since = this.now();
      await this.deps.repository.markMissing(
        vanished.map((row) => row.id),
        since,
      );
      await this.deps.folderSongs.setMissing(songIdsOf(vanished), since);
      counts.missing += vanished.length;
    }

    // Changed files: read again; the song keeps its id (likes, playlists, lyrics, analysis).
    await eachLimited(changed, PARSE_CONCURRENCY, async ({ work, row }) => {
      const read = await this.read(work);
      if ('problem' in read) {
        // Not a song (any more): its song, if it had one, is hidden like a missing file's.
        await this.deps.repository.updateFile(row.id, { size: work.file.size, mtimeMs: work.file.mtimeMs, problem: read.problem, missingSince: null });
        if (row.songId !== null) await this.deps.folderSongs.setMissing([row.songId], this.now());
        counts.failed += 1;
      } else if (row.songId !== null) {
        await this.deps.folderSongs.update(row.songId, { ...read.values, storageKey: row.storageKey });
        await this.deps.repository.updateFile(row.id, fileValues(work, read, row.storageKey, row.songId));
        if (row.missingSince !== null) await this.deps.folderSongs.setMissing([row.songId], null);
        counts.updated += 1;
      } else {
        // It was not a song before (it could not be read): it is one now.
        const [songId] = await this.deps.folderSongs.add([{ ...read.values, storageKey: row.storageKey }]);
        await this.deps.repository.updateFile(row.id, fileValues(work, read, row.storageKey, songId ?? null));
        // Told once the file row resolves the song's key: the analysis reads the file through it.
        if (songId !== undefined) await this.deps.folderSongs.announce([{ songId, tags: read.values.tags }]);
        counts.added += 1;
      }
      counts.done += 1;
      progress.tick();
    });

    await eachLimited(renamed, PARSE_CONCURRENCY, async ({ work, row }) => {
      const read = await this.read(work, fingerprints.get(work));
      if ('problem' in read || row.songId === null) return; // read as it was before; its next change is read again
      await this.deps.folderSongs.update(row.songId, { ...read.values, storageKey: row.storageKey });
      await this.deps.repository.updateFile(row.id, fileValues(work, read, row.storageKey, row.songId));
    });

    // New files, in batches: one insert of songs and one of file rows per batch. The next batch
    // is read while the last one is written (the disk and the database work at once).
    const write = async (batch: FileWork[], read: (ReadFile | { problem: string })[]): Promise<void> => {
      const songs = read.flatMap((result) => ('values' in result ? [result.values] : []));
      // The file rows first: from the moment a song exists its key resolves to its file (the
      // analysis backfill may read it at once); the rows learn their songs right after.
      const rows: NewFolderFile[] = batch.map((work, index) => {
        const result = read[index]!;
        if ('values' in result) return fileValues(work, result, result.values.storageKey, null);
        counts.failed += 1;
        return {
          folder,
          path: work.file.path,
          storageKey: `music/${randomUUID()}`,
          size: work.file.size,
          mtimeMs: work.file.mtimeMs,
          fingerprint: fingerprints.get(work) ?? null,
          contentType: AUDIO_TYPES[extensionOf(work.file.name)] ?? 'application/octet-stream',
          songId: null,
          problem: result.problem,
        };
      });
      await this.deps.repository.insertFiles(rows);
      const ids = songs.length > 0 ? await this.deps.folderSongs.add(songs) : [];
      await this.deps.repository.linkSongs(songs.map((song, index) => ({ storageKey: song.storageKey, songId: ids[index]! })));
      // Told once the file rows resolve the songs' keys: the analysis and the lyrics read the files through them.
      await this.deps.folderSongs.announce(ids.map((songId, index) => ({ songId, tags: songs[index]?.tags })));
      counts.added += songs.length;
      counts.done += batch.length;
      progress.tick();
    };
    let writing: Promise<void> = Promise.resolve();
    for (let start = 0; start < toAdd.length; start += ADD_BATCH) {
      signal?.throwIfAborted();
      const batch = toAdd.slice(start, start + ADD_BATCH);
      const read: (ReadFile | { problem: string })[] = new Array(batch.length);
      await eachLimited(
        batch.map((work, index) => ({ work, index })),
        PARSE_CONCURRENCY,
        async ({ work, index }) => {
          read[index] = await this.read(work, fingerprints.get(work));
        },
      );
      await writing;
      writing = write(batch, read);
      // Awaited above or below; a failure is not "unhandled" while the next batch is read.
      writing.catch(() => undefined);
    }
    await writing;

    return problems;
  }

  /** The tags, cover and lyrics of a file; undefined (and a problem reported) when it is not a usable song. */
  private async read(work: FileWork, knownFingerprint?: string): Promise<ReadFile | { problem: string }> {
    const { folder, file, directory } = work;
    const full = absolutePath(folder, file.path);
    const extensionType = AUDIO_TYPES[extensionOf(file.name)] ?? 'application/octet-stream';
    let tags: AudioTags;
    let fileType = extensionType;
    let fingerprint: string;
    try {
      fingerprint = knownFingerprint ?? (await this.fingerprint(full, file.size));
      if (file.size === 0) return { problem: NOT_AUDIO };
      // The sniffer and the tag parser read the file through one handle (and its cached block).
      const found = await localFile(this.opener(full), file.size, async (source) => {
        const sniffed = await sniffAudioFile(source);
        if (sniffed) fileType = sniffed.mimeType;
        // The sniffer knows these formats' every variant: a file named for one that it does not
        // recognise is not one (the MPEG parser would take any bytes for frames). A file with no
        // extension is a song only by what the sniffer finds.
        else if (SNIFFED_EXTENSIONS.has(extensionOf(file.name)) || extensionOf(file.name) === '') return undefined;
        return this.tagsOf(full, file.size, fileType, source);
      });
      if (found === undefined) return { problem: NOT_AUDIO };
      tags = found;
    } catch (error) {
      if (error instanceof OutsideFoldersError) return { problem: LINK_OUTSIDE };
      return { problem: error instanceof NotAudioError ? NOT_AUDIO : UNREADABLE };
    }
    if (tags.hasVideo) return { problem: HAS_VIDEO };
    if (!tags.hasAudio) return { problem: NO_AUDIO_STREAM };
    if (this.deps.ffmpeg && ffmpegWouldComplete(tags)) tags = await completedByFfmpeg(this.deps.ffmpeg, full, tags);
    const coverName = tags.picture ? undefined : coverAmong(directory.names);
    const coverPath = coverName === undefined ? null : joinRelative(directory.path, coverName);
    const cover = tags.picture ? await this.cover(tags.picture.data, full) : coverPath ? await this.coverBeside(absolutePath(folder, coverPath), full) : null;
    const lrcName = lyricsFileFor(file.name, directory.names);
    let lrcMtimeMs: number | null = null;
    if (lrcName !== undefined) {
      const lrcPath = absolutePath(folder, joinRelative(directory.path, lrcName));
      const bytes = await this.deps.bounds.readSmall(lrcPath, 1024 * 1024);
      if (bytes) {
        // Decoded as every lyrics file is (UTF-16, legacy code pages); the lyrics module keeps
        // it as the song's lyrics, with the file beside it as their source (embedded synced ones come first).
        tags = { ...tags, lyricsFile: lyricsTextOf(bytes) };
        lrcMtimeMs = Math.trunc((await fs.stat(lrcPath).catch(() => undefined))?.mtimeMs ?? 0);
      }
    }
    return {
      values: {
        fileName: file.name,
        fileType,
        storageKey: `music/${randomUUID()}.${extensionOf(file.name) || 'bin'}`,
        size: file.size,
        tags,
        folderId: this.deps.folders.indexOf(folder) + 1,
        coverKey: cover?.coverKey ?? null,
        coverThumbKey: cover?.coverThumbKey ?? null,
      },
      fingerprint,
      coverPath,
      lrcMtimeMs,
    };
  }

  /** Tags by the format the name says, else by what the bytes say (a file named for another format). */
  private async tagsOf(full: string, size: number, fileType: string, open?: ClosableSource): Promise<AudioTags> {
    const timeout = this.deps.tagTimeoutMs ?? 10_000;
    try {
      return await (open
        ? readAudioTags(open, { mimeType: fileType }, timeout)
        : localFile(this.opener(full), size, (source) => readAudioTags(source, { mimeType: fileType }, timeout)));
    } catch (first) {
      try {
        return await localFile(this.opener(full), size, (source) => readAudioTags(source, { mimeType: '' }, timeout));
      } catch (error) {
        if (error instanceof Error && /unsupported|guess|mime/i.test(error.message)) throw new NotAudioError(error.message);
        throw first;
      }
    }
  }

  /**
   * A cover stored once per picture, however many songs show it (an album's twelve embedded
   * copies, one folder.jpg): its key is the picture's hash. A picture that cannot be used only
   * costs the song its cover.
   */
  private async cover(picture: Uint8Array | undefined, file: string): Promise<{ coverKey: string; coverThumbKey: string } | null> {
    if (!picture || picture.length === 0) return null;
    const hash = createHash('sha256').update(picture).digest('hex').slice(0, 40);
    let stored = this.covers.get(hash);
    if (!stored) {
      stored = this.storeCover(hash, picture, file);
      this.covers.set(hash, stored);
      // Only a few hundred albums' worth remembered: the storage answers for the rest.
      if (this.covers.size > 2000) this.covers.delete(this.covers.keys().next().value as string);
    }
    return stored;
  }

  /**
   * An album's cover.jpg (or folder.png…) beside its songs: read and hashed once per scan, not
   * once per song. One that could not be used is tried again by the next song, as before.
   */
  private async coverBeside(picturePath: string, file: string): Promise<CoverKeys | null> {
    let stored = this.besideCovers.get(picturePath);
    if (!stored) {
      stored = this.deps.bounds.readSmall(picturePath, 20 * 1024 * 1024).then((picture) => this.cover(picture, file));
      this.besideCovers.set(picturePath, stored);
      if (this.besideCovers.size > 2000) this.besideCovers.delete(this.besideCovers.keys().next().value as string);
    }
    const keys = await stored;
    if (keys === null) this.besideCovers.delete(picturePath);
    return keys;
  }

  private async storeCover(hash: string, picture: Uint8Array, file: string): Promise<{ coverKey: string; coverThumbKey: string } | null> {
    const keys = { coverKey: `covers/h-${hash}/full.jpg`, coverThumbKey: `covers/h-${hash}/thumb.jpg` };
    if (await this.deps.storage.stat(keys.coverKey)) return keys;
    try {
      const rendered = await renderCover(picture, this.deps.coverLimits ?? DEFAULT_COVER_LIMITS);
      await this.deps.storage.put(keys.coverKey, rendered.full, { contentType: rendered.contentType });
      return keys;
    } catch (error) {
      if (!(error instanceof UnusableCoverError)) this.deps.logger.warn({ err: error, file }, 'could not store a cover of a music folder');
      this.covers.delete(hash);
      return null;
    }
  }

  /** Songs of folders no longer configured: hidden like missing files. */
  private async hideUnconfigured(counts: ScanCounts, now: Date): Promise<ScanProblem[]> {
    const problems: ScanProblem[] = [];
    for (const folder of await this.deps.repository.foldersWithFiles()) {
      if (this.deps.folders.includes(folder)) continue;
      const rows = (await this.deps.repository.filesOf(folder)).filter((row) => row.missingSince === null);
      if (rows.length === 0) continue;
      await this.deps.repository.markMissing(
        rows.map((row) => row.id),
        now,
      );
      await this.deps.folderSongs.setMissing(songIdsOf(rows), now);
      counts.missing += rows.length;
      problems.push({ folder, path: '', reason: FOLDER_NOT_CONFIGURED });
    }
    return problems;
  }

  private async removeExpired(now: Date): Promise<void> {
    const expired = await this.deps.repository.expired(new Date(now.getTime() - this.deps.missingGraceMs));
    if (expired.length === 0) return;
    await this.deps.folderSongs.remove(songIdsOf(expired));
    await this.deps.repository.deleteFiles(expired.map((row) => row.id));
    this.deps.logger.info({ count: expired.length }, 'removed the songs of music folders missing for longer than the grace period');
  }

  /** Opens a folder file for reading, within the bounds (OutsideFoldersError when it leads outside them). */
  private opener(file: string): () => Promise<fs.FileHandle> {
    return async () => (await this.deps.bounds.open(file)).handle;
  }

  private async fingerprint(file: string, size: number): Promise<string> {
    const { handle } = await this.deps.bounds.open(file);
    try {
      return await fingerprintOf(handle, size);
    } finally {
      await handle.close();
    }
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

class NotAudioError extends Error {}

/** Extensions of the formats the upload sniffer recognises (platform/media/audio-sniffer.ts). */
const SNIFFED_EXTENSIONS = new Set(['mp3', 'mp2', 'mp1', 'mpa', 'wav', 'ogg', 'oga', 'opus', 'm4a', 'm4b', 'mp4', 'aac', 'flac']);

function fileValues(work: FileWork, read: ReadFile, storageKey: string, songId: number | null): NewFolderFile {
  return {
    folder: work.folder,
    path: work.file.path,
    storageKey,
    size: work.file.size,
    mtimeMs: work.file.mtimeMs,
    fingerprint: read.fingerprint,
    contentType: read.values.fileType,
    songId,
    problem: null,
    missingSince: null,
    coverPath: read.coverPath,
    lrcMtimeMs: read.lrcMtimeMs,
  };
}

/** Whether `file` (relative to the scope's folder) is in the part of the folder the scope names. */
export function within(scope: ScanScope, file: string): boolean {
  if (scope.path === '') return scope.recursive || !file.includes('/');
  if (!file.startsWith(`${scope.path}/`)) return false;
  return scope.recursive || !file.slice(scope.path.length + 1).includes('/');
}

function baseName(relative: string): string {
  return relative.slice(relative.lastIndexOf('/') + 1);
}

function joinRelative(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}

function songIdsOf(rows: readonly { songId: number | null }[]): number[] {
  return rows.flatMap((row) => (row.songId === null ? [] : [row.songId]));
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const value = key(row);
    if (value === null) continue;
    const group = groups.get(value);
    if (group) group.push(row);
    else groups.set(value, [row]);
  }
  return groups;
}

async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

interface Throttled {
  tick(): void;
  flush(): Promise<void>;
}

function throttled(report: ((counts: ScanCounts) => Promise<void>) | undefined, counts: ScanCounts): Throttled {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  return {
    tick() {
      if (!report) return;
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      pending = pending.then(() => report({ ...counts }).catch(() => undefined));
    },
    async flush() {
      await pending;
      if (report) await report({ ...counts }).catch(() => undefined);
    },
  };
}
