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
import { DEFAULT_COVER_LIMITS, type CoverLimits } from '../../../platform/media/cover-image.js';
import { safeFileName } from '../../../platform/storage/safe-file-name.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import { completeUploadTags, describeSong, readUploadTags, recordSong, sniffUpload, storeCover, type CoverKeys } from '../ingest/ingest.phases.js';
import type { LibraryRepository } from '../library.repository.js';
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
  /** Checked between files: the file in hand is finished (or left as if never started). */
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** Called once a file is settled (tests pause here to interrupt a run). */
  afterFile?: (file: string, outcome: FileOutcome) => Promise<void> | void;
}

/**
 * `main.ts import <folder>`: copies a folder's songs into storage, one file at a time, through
 * the upload's phases (sniff, tags, cover, the song row, the new-song announcement). A file
 * whose bytes (sha256) a song already has is skipped, so a re-run after an interruption picks
 * up where the last one stopped; the folder is only ever read.
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
    /** sha256 → the first file of this run with those bytes. */
    const seen = new Map<string, string>();
    options.onProgress?.({ ...progress });
    for (const file of files) {
      if (options.signal?.aborted) {
        report.interrupted = true;
        break;
      }
      const name = path.relative(root, file.path);
      let outcome: FileOutcome;
      try {
        outcome = await this.importFile(file, name, options.ownerId, seen, beside.get(path.dirname(file.path)) ?? []);
      } catch (error) {
        this.deps.logger.error({ err: error, file: file.path }, 'import of a file failed');
        outcome = { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
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
    }
    return report;
  }

  /** Refusals (the file is not a song Encore takes) come back as outcomes; anything thrown is a failure. */
  private async importFile(file: FoundFile, name: string, ownerId: number, seen: Map<string, string>, besideNames: readonly string[]): Promise<FileOutcome> {
    const { storage, logger, repository } = this.deps;
    const maxBytes = this.deps.maxFileBytes ?? IMPORT_MAX_FILE_BYTES;
    if (file.size > maxBytes) return { kind: 'refused', reason: fileTooLargeError(maxBytes).message };
    const refusal = (error: unknown): FileOutcome => {
      if (error instanceof AppError && error.isRefusal) return { kind: 'refused', reason: error.message };
      if (isFileSystemError(error)) return { kind: 'refused', reason: unreadable(error) };
      throw error;
    };

    let source;
    try {
      source = await localFileSource(file.path, file.size);
    } catch (error) {
      return refusal(error);
    }
    let tags: AudioTags;
    let sha256: string;
    let mimeType: string;
    try {
      const audio = await sniffUpload(source);
      mimeType = audio.mimeType;
      sha256 = await sha256Of(file.path);
      const first = seen.get(sha256);
      if (first !== undefined) return { kind: 'duplicate', of: first };
      const existing = await repository.songIdByContentSha256(sha256);
      // Only a file that made a song stands for its twins: a refused one's are judged on their own.
      if (existing !== undefined) {
        seen.set(sha256, name);
        return { kind: 'skipped', songId: existing };
      }
      tags = await completeUploadTags(await readUploadTags(source, audio, this.deps.tagTimeoutMs), this.deps.ffmpeg, (use) => use(file.path));
      const lrcName = lyricsFileFor(path.basename(file.path), besideNames);
      const lrc = lrcName === undefined ? undefined : await readSideFile(path.join(path.dirname(file.path), lrcName));
      // Decoded as every lyrics file is (UTF-16, legacy code pages); stored with the file beside it as their source.
      if (lrc) tags = { ...tags, lyricsFile: lyricsTextOf(lrc) };
      const key = `songs/${randomUUID()}/${safeFileName(path.basename(file.path))}`;
      let cover: CoverKeys | null = null;
      try {
        // Hashed again on the way in: what is stored is the bytes that were checked.
        const stored = createHash('sha256');
        await storage.put(key, hashedStream(file.path, stored), { contentType: mimeType });
        if (stored.digest('hex') !== sha256) return { kind: 'refused', reason: await this.discard([key], CHANGED_WHILE_IMPORTING) };
        cover = await storeCover(storage, tags.picture ?? (await coverBeside(file.path, besideNames)), this.deps.coverLimits ?? DEFAULT_COVER_LIMITS, logger, {
          key,
        });
        const values = describeSong({ ownerId, fileName: path.basename(file.path), storageKey: key, size: file.size, folderId: 0 }, audio, tags, cover);
        const { row, created } = await recordSong(repository, { ...values, contentSha256: sha256 });
        seen.set(sha256, name);
        if (!created) {
          // Another import added the same bytes meanwhile: its song stands, this copy goes.
          await this.discard([key, ...(cover ? [cover.coverKey, cover.coverThumbKey] : [])], '');
          return { kind: 'skipped', songId: row.id };
        }
        await this.deps.onSongAdded(row.id, tags).catch((error: unknown) => logger.warn({ err: error, songId: row.id }, 'a new-song listener failed'));
        return { kind: 'imported', songId: row.id, bytes: file.size };
      } catch (error) {
        await this.discard([key, ...(cover ? [cover.coverKey, cover.coverThumbKey] : [])], '');
        throw error;
      }
    } catch (error) {
      return refusal(error);
    } finally {
      source.close();
    }
  }

  private async discard(keys: string[], reason: string): Promise<string> {
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.deps.logger.error({ err: result.reason, key: keys[index] }, 'could not remove an object of a failed import');
    });
    return reason;
  }
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
