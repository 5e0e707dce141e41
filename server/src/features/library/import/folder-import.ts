import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import { fileTooLargeError } from '../../../platform/fs/byte-limit.js';
import { holdErrors } from '../../../platform/streams/hold-errors.js';
import { AppError } from '../../../platform/errors/app-errors.js';
import type { Logger } from '../../../platform/logger.js';
import type { AudioTags } from '../../../platform/media/audio-tags.js';
import { DEFAULT_COVER_LIMITS, renderCover, type CoverLimits, type RenderedCover } from '../../../platform/media/cover-image.js';
import type { SniffedAudio } from '../../../platform/media/audio-sniffer.js';
import { safeFileName } from '../../../platform/storage/safe-file-name.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import { completeUploadTags, describeSong, readUploadTags, sniffUpload, storeRenderedCover, type CoverKeys } from '../ingest/ingest.phases.js';
import type { LibraryRepository, NewSong, SongRow } from '../library.repository.js';
import type { AddedSong } from '../library.port.js';
import { unreadable, walkFolder, type FoundFile } from './folder-walk.js';
import { localFileSource } from '../../../platform/media/local-file-source.js';
import { coverAmong, isSideFile, lyricsFileFor } from '../../../platform/media/side-files.js';
import { lyricsTextOf } from '@encore/common/lyrics-text.decode';

/**
 * The largest file an import takes: a sanity cap against disk images and videos in a music
 * folder, well above any song (a 24-bit/192 kHz FLAC album side is about 1 GiB). MAX_UPLOAD_MB
 * is the browsers' limit and does not apply here.
 */
export const IMPORT_MAX_FILE_BYTES = 2 * 1024 ** 3;

export const CHANGED_WHILE_IMPORTING = 'The file changed while it was being imported; run the import again.';
export const LYRICS_WITHOUT_SONG = 'Lyrics (.lrc) with no song of the same name beside them.';

/** A cover picture or an .lrc read whole: far above any real one, far below a mistaken disk image. */
const SIDE_FILE_MAX_BYTES = 20 * 1024 * 1024;

export interface FolderImportDeps {
  repository: LibraryRepository;
  storage: Storage;
  logger: Logger;
  tagTimeoutMs: number;
  /** Measures what the tags do not say (see completeUploadTags). */
  ffmpeg?: Pick<Ffmpeg, 'run' | 'start'>;
  coverLimits?: CoverLimits;
  maxFileBytes?: number;
  /** The library's new-song announcement, as for an upload (embedded lyrics, analysis); never fails the import. */
  onSongAdded: (songId: number, tags: AudioTags | undefined) => Promise<void>;
  /** The same for many songs at once (one analysis backfill, one lyrics statement), as a music folder's scan announces them. */
  onSongsAdded?: (songs: AddedSong[]) => Promise<void>;
}

/** What became of one file. */
export type FileOutcome =
  | { kind: 'imported'; songId: number; bytes: number }
  | { kind: 'skipped'; songId: number }
  | { kind: 'duplicate'; of: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

export interface ImportProgress {
  filesDone: number;
  filesTotal: number;
  /** Bytes of the files done (read, whatever became of them). */
  bytesDone: number;
  bytesTotal: number;
  refused: number;
}

export interface ImportReport {
  imported: { path: string; songId: number }[];
  importedBytes: number;
  skipped: { path: string; songId: number }[];
  duplicates: { path: string; of: string }[];
  refused: { path: string; reason: string }[];
  /** Files that failed for a reason that is not the file's (the database or the storage failed). */
  failed: { path: string; reason: string }[];
  /** Stopped before the end (Ctrl-C): the files after the current one were not looked at. */
  interrupted: boolean;
}

export interface ImportOptions {
  ownerId: number;
  /** Checked between batches: the batch in hand is finished; files read ahead are left as if never started. */
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** Called once a file is settled (tests pause here to interrupt a run). */
  afterFile?: (file: string, outcome: FileOutcome) => Promise<void> | void;
}

/** Files read ahead of the one being stored (sniffed, hashed, tags read, cover rendered): read-only work. */
const READ_AHEAD = 8;
/** Songs stored and recorded together (one insert, one announcement); the first batches are smaller (below). */
const MAX_BATCH = 32;
/** Rendered covers kept for the songs after (an album's songs come one after another). */
const COVER_CACHE = 16;

/** A file read and judged, not yet stored: everything a song row needs but its keys. */
interface ReadFile {
  file: FoundFile;
  name: string;
  sha256: string;
  mimeType: string;
  audio: SniffedAudio;
  /** Without the picture (it can be megabytes; no listener reads it): its rendering is in `cover`. */
  tags: AudioTags;
  cover: Promise<RenderedCover> | null;
}

/**
 * `main.ts import <folder>`: copies a folder's songs into storage through the upload's phases
 * (sniff, tags, cover, the song row, the new-song announcement). A file whose bytes (sha256) a
 * song already has is skipped, so a re-run after an interruption picks up where the last one
 * stopped; the folder is only ever read.
 *
 * Fast (issue 39): the next files are read ahead while a batch is stored (READ_AHEAD at once);
 * a batch's files are copied at once, recorded in one insert and announced in one call (one
 * analysis backfill, one lyrics statement); an album's cover is rendered once. Batches start
 * at one file and double up to MAX_BATCH: the first song is in the library at once, and Ctrl-C
 * stops after the batch in hand (the files read ahead are left as if never started).
 */
export class FolderImport {
  constructor(private readonly deps: FolderImportDeps) {}

  async run(folder: string, options: ImportOptions): Promise<ImportReport> {
    const root = path.resolve(folder);
    const { files: found, problems } = await walkFolder(root);
    // Covers and .lrc files beside the songs are theirs (as the music folders' scan reads them), not songs.
    const beside = new Map<string, string[]>();
    for (const file of found) {
      const dir = path.dirname(file.path);
      beside.set(dir, [...(beside.get(dir) ?? []), path.basename(file.path)]);
    }
    const files = found.filter((file) => !isSideFile(path.basename(file.path)));
    const used = new Set(files.flatMap((file) => lyricsFileFor(path.basename(file.path), beside.get(path.dirname(file.path)) ?? []) ?? []));
    const orphans = found.filter((file) => path.extname(file.path).toLowerCase() === '.lrc' && !used.has(path.basename(file.path)));
    const report: ImportReport = {
      imported: [],
      importedBytes: 0,
      skipped: [],
      duplicates: [],
      refused: [
        ...problems.map((problem) => ({ path: path.relative(root, problem.path) || '.', reason: problem.reason })),
        ...orphans.map((file) => ({ path: path.relative(root, file.path), reason: LYRICS_WITHOUT_SONG })),
      ],
      failed: [],
      interrupted: false,
    };
    const progress: ImportProgress = {
      filesDone: 0,
      filesTotal: files.length,
      bytesDone: 0,
      bytesTotal: files.reduce((sum, file) => sum + file.size, 0),
      refused: report.refused.length,
    };
    options.onProgress?.({ ...progress });
    const settle = async (file: FoundFile, name: string, outcome: FileOutcome) => {
      if (outcome.kind === 'imported') {
        report.imported.push({ path: name, songId: outcome.songId });
        report.importedBytes += outcome.bytes;
      } else if (outcome.kind === 'skipped') report.skipped.push({ path: name, songId: outcome.songId });
      else if (outcome.kind === 'duplicate') report.duplicates.push({ path: name, of: outcome.of });
      else if (outcome.kind === 'refused') report.refused.push({ path: name, reason: outcome.reason });
      else report.failed.push({ path: name, reason: outcome.reason });
      progress.filesDone += 1;
      progress.bytesDone += file.size;
      progress.refused = report.refused.length + report.failed.length;
      options.onProgress?.({ ...progress });
      await options.afterFile?.(file.path, outcome);
    };

    /** sha256 → the first file of this run with those bytes. */
    const seen = new Map<string, string>();
    const render = coverRenderer();
    const ahead: Promise<ReadFile | { file: FoundFile; name: string; outcome: FileOutcome }>[] = [];
    let next = 0;
    const readAhead = () => {
      while (next < files.length && ahead.length < READ_AHEAD) {
        const file = files[next++] as FoundFile;
        ahead.push(this.readFile(file, path.relative(root, file.path), beside.get(path.dirname(file.path)) ?? [], render));
      }
    };
    let batchSize = 1;
    try {
      while (next < files.length || ahead.length > 0) {
        if (options.signal?.aborted) {
          report.interrupted = true;
          break;
        }
        readAhead();
        // A batch: files in order; one whose bytes another of the batch has ends it (the first must be stored before its twin is judged).
        const batch: ReadFile[] = [];
        const shas = new Set<string>();
        while (batch.length < batchSize && ahead.length > 0) {
          const read = await (ahead[0] as (typeof ahead)[number]);
          if (!('outcome' in read) && shas.has(read.sha256)) break;
          ahead.shift();
          readAhead();
          if ('outcome' in read) {
            // Settled without storing (refused, failed): in order, between the batch's files.
            if (batch.length > 0) await this.storeBatch(batch, { ownerId: options.ownerId, seen, settle });
            batch.length = 0;
            shas.clear();
            await settle(read.file, read.name, read.outcome);
            if (options.signal?.aborted) break;
            continue;
          }
          batch.push(read);
          shas.add(read.sha256);
        }
        if (batch.length > 0) await this.storeBatch(batch, { ownerId: options.ownerId, seen, settle });
        batchSize = Math.min(MAX_BATCH, batchSize * 2);
      }
      if (options.signal?.aborted && (next < files.length || ahead.length > 0)) report.interrupted = true;
    } finally {
      // Files read ahead and not stored: their reading ends (files closed) before the report.
      await Promise.allSettled(ahead);
    }
    return report;
  }

  /** Reading and judging a file, nothing written: a refusal comes back as an outcome, a failure too. */
  private async readFile(
    file: FoundFile,
    name: string,
    besideNames: readonly string[],
    render: CoverRenderer,
  ): Promise<ReadFile | { file: FoundFile; name: string; outcome: FileOutcome }> {
    const maxBytes = this.deps.maxFileBytes ?? IMPORT_MAX_FILE_BYTES;
    const settled = (outcome: FileOutcome) => ({ file, name, outcome });
    if (file.size > maxBytes) return settled({ kind: 'refused', reason: fileTooLargeError(maxBytes).message });
    let source;
    try {
      source = await localFileSource(file.path, file.size);
    } catch (error) {
      return settled(this.refusal(error, file));
    }
    try {
      const audio = await sniffUpload(source);
      const sha256 = await sha256Of(file.path);
      let tags = await completeUploadTags(await readUploadTags(source, audio, this.deps.tagTimeoutMs), this.deps.ffmpeg, (use) => use(file.path));
      const lrcName = lyricsFileFor(path.basename(file.path), besideNames);
      const lrc = lrcName === undefined ? undefined : await readSideFile(path.join(path.dirname(file.path), lrcName));
      // Decoded as every lyrics file is (UTF-16, legacy code pages); stored with the file beside it as their source.
      if (lrc) tags = { ...tags, lyricsFile: lyricsTextOf(lrc) };
      const picture = tags.picture ?? (await coverBeside(file.path, besideNames));
      // Rendered now, while earlier files are stored (an unusable picture only costs the song its cover, when it is stored).
      const cover = picture ? render(picture.data, this.deps.coverLimits ?? DEFAULT_COVER_LIMITS) : null;
      await cover?.catch(() => undefined);
      return { file, name, sha256, mimeType: audio.mimeType, audio, tags: { ...tags, picture: null }, cover };
    } catch (error) {
      return settled(this.refusal(error, file));
    } finally {
      source.close();
    }
  }

  /** Refusals (the file is not a song Encore takes) are outcomes; anything else is a failure of the import. */
  private refusal(error: unknown, file: FoundFile): FileOutcome {
    if (error instanceof AppError && error.isRefusal) return { kind: 'refused', reason: error.message };
    if (isFileSystemError(error)) return { kind: 'refused', reason: unreadable(error) };
    this.deps.logger.error({ err: error, file: file.path }, 'import of a file failed');
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }

  /**
   * Stores a batch: skips what the library has (one query) and what this run stored already,
   * copies the rest and their covers at once, records them in one insert, announces them in
   * one call, then settles each file in order.
   */
  private async storeBatch(
    batch: readonly ReadFile[],
    run: {
      ownerId: number;
      /** sha256 → the first file of this run with those bytes. */
      seen: Map<string, string>;
      settle: (file: FoundFile, name: string, outcome: FileOutcome) => Promise<void>;
    },
  ): Promise<void> {
    const { repository, logger } = this.deps;
    const { seen, settle } = run;
    const outcomes = new Map<ReadFile, FileOutcome>();
    let existing: Map<string, number>;
    try {
      existing = await repository.songIdsByContentSha256(batch.map((read) => read.sha256));
    } catch (error) {
      for (const read of batch) outcomes.set(read, this.refusal(error, read.file));
      existing = new Map();
    }
    const toStore: ReadFile[] = [];
    for (const read of batch) {
      if (outcomes.has(read)) continue;
      const first = seen.get(read.sha256);
      const known = existing.get(read.sha256);
      if (first !== undefined) outcomes.set(read, { kind: 'duplicate', of: first });
      else if (known !== undefined) {
        // Only a file that made a song stands for its twins: a refused one's are judged on their own.
        seen.set(read.sha256, read.name);
        outcomes.set(read, { kind: 'skipped', songId: known });
      } else toStore.push(read);
    }
    const ready: { read: ReadFile; values: NewSong; keys: string[] }[] = [];
    await Promise.all(
      toStore.map(async (read) => {
        try {
          const stored = await this.store(read, run.ownerId);
          if ('outcome' in stored) outcomes.set(read, stored.outcome);
          else ready.push({ read, ...stored });
        } catch (error) {
          outcomes.set(read, this.refusal(error, read.file));
        }
      }),
    );
    // Recorded in the folder's order (song ids follow it), whichever copy finished first.
    ready.sort((a, b) => batch.indexOf(a.read) - batch.indexOf(b.read));
    let rows: SongRow[] = [];
    try {
      rows = await repository.insertBatch(ready.map((entry) => entry.values));
    } catch (error) {
      await this.discard(
        ready.flatMap((entry) => entry.keys),
        '',
      );
      for (const entry of ready) outcomes.set(entry.read, this.refusal(error, entry.read.file));
    }
    const byKey = new Map(rows.map((row) => [row.storageKey, row]));
    const added: AddedSong[] = [];
    for (const entry of ready) {
      if (outcomes.has(entry.read)) continue;
      const row = byKey.get(entry.values.storageKey);
      if (row) {
        seen.set(entry.read.sha256, entry.read.name);
        added.push({ songId: row.id, tags: entry.read.tags });
        outcomes.set(entry.read, { kind: 'imported', songId: row.id, bytes: entry.read.file.size });
        continue;
      }
      // Another import added the same bytes meanwhile: its song stands, this copy goes.
      await this.discard(entry.keys, '');
      const theirs = await repository.songIdByContentSha256(entry.read.sha256).catch(() => undefined);
      if (theirs === undefined) outcomes.set(entry.read, { kind: 'failed', reason: 'The song could not be recorded' });
      else {
        seen.set(entry.read.sha256, entry.read.name);
        outcomes.set(entry.read, { kind: 'skipped', songId: theirs });
      }
    }
    await this.announce(added).catch((error: unknown) => logger.warn({ err: error }, 'a new-song listener failed'));
    for (const read of batch) await settle(read.file, read.name, outcomes.get(read) ?? { kind: 'failed', reason: 'The file was not imported' });
  }

  /** The song's bytes and cover stored under new keys: its row's values, or why not. */
  private async store(read: ReadFile, ownerId: number): Promise<{ values: NewSong; keys: string[] } | { outcome: FileOutcome }> {
    const { storage, logger } = this.deps;
    const { file } = read;
    const key = `songs/${randomUUID()}/${safeFileName(path.basename(file.path))}`;
    let cover: CoverKeys | null = null;
    try {
      // Hashed again on the way in: what is stored is the bytes that were checked.
      const hash = createHash('sha256');
      await storage.put(key, hashedStream(file.path, hash), { contentType: read.mimeType });
      if (hash.digest('hex') !== read.sha256) return { outcome: { kind: 'refused', reason: await this.discard([key], CHANGED_WHILE_IMPORTING) } };
      cover = read.cover ? await storeRenderedCover(storage, read.cover, logger, { key }) : null;
      const values = describeSong({ ownerId, fileName: path.basename(file.path), storageKey: key, size: file.size, folderId: 0 }, read.audio, read.tags, cover);
      return { values: { ...values, contentSha256: read.sha256 }, keys: [key, ...(cover ? [cover.coverKey, cover.coverThumbKey] : [])] };
    } catch (error) {
      await this.discard([key, ...(cover ? [cover.coverKey, cover.coverThumbKey] : [])], '');
      throw error;
    }
  }

  /** The batch announced at once where the library can (one call per listener), else song by song. */
  private async announce(added: AddedSong[]): Promise<void> {
    if (added.length === 0) return;
    if (this.deps.onSongsAdded) return this.deps.onSongsAdded(added);
    for (const song of added)
      await this.deps
        .onSongAdded(song.songId, song.tags)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, songId: song.songId }, 'a new-song listener failed'));
  }

  private async discard(keys: string[], reason: string): Promise<string> {
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.deps.logger.error({ err: result.reason, key: keys[index] }, 'could not remove an object of a failed import');
    });
    return reason;
  }
}

type CoverRenderer = (data: Uint8Array, limits: CoverLimits) => Promise<RenderedCover>;

/** renderCover, keeping the last COVER_CACHE renderings by the picture's bytes (an album's songs share one). */
function coverRenderer(): CoverRenderer {
  const kept = new Map<string, Promise<RenderedCover>>();
  return (data, limits) => {
    const id = createHash('sha1').update(data).digest('hex');
    let rendering = kept.get(id);
    if (!rendering) {
      rendering = renderCover(data, limits);
      kept.set(id, rendering);
      if (kept.size > COVER_CACHE) kept.delete(kept.keys().next().value as string);
    }
    return rendering;
  };
}

/** The album's cover picture beside a song without an embedded one (`cover.jpg`, `folder.png`…). */
async function coverBeside(file: string, besideNames: readonly string[]): Promise<AudioTags['picture']> {
  const name = coverAmong(besideNames);
  const data = name === undefined ? undefined : await readSideFile(path.join(path.dirname(file), name));
  return data ? { data, format: `image/${path.extname(name!).slice(1).toLowerCase().replace('jpg', 'jpeg')}` } : null;
}

/** A cover or an .lrc read whole; undefined when it cannot be read or is too large to be one (the song is imported without it). */
async function readSideFile(file: string): Promise<Buffer | undefined> {
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile() || stats.size > SIDE_FILE_MAX_BYTES) return undefined;
    return await fs.readFile(file);
  } catch {
    return undefined;
  }
}

/** The sha256 of a file's bytes, hex, read as a stream (a 200 MB FLAC never sits in memory). */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's bytes, fed to `hash` as they pass; a read error fails the stream. */
function hashedStream(file: string, hash: Hash): Readable {
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // Storage reads it only after its own awaits; a read error before then (the file gone) must
  // not be an 'error' event nobody hears: the stream keeps it, and its reader gets it.
  pipeline(createReadStream(file), through, () => undefined);
  return holdErrors(through);
}

/** Errors of reading the file (its, not the storage's or the database's: a full disk is a failure). */
const FILE_ERRORS = new Set(['EACCES', 'EPERM', 'ENOENT', 'EISDIR', 'ELOOP', 'EIO']);

function isFileSystemError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && FILE_ERRORS.has(code);
}
