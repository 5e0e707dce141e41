import { randomUUID } from 'node:crypto';
import { fileTooLargeError } from '../../../platform/fs/byte-limit.js';
import { NotFoundError, UnprocessableError, UnsupportedMediaTypeError } from '../../../platform/errors/app-errors.js';
import type { Logger } from '../../../platform/logger.js';
import { sniffAudioFile, type SniffedAudio } from '../../../platform/media/audio-sniffer.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import { completedByFfmpeg, ffmpegWouldComplete } from '../../../platform/media/ffmpeg.measure.js';
import { readAudioTags, type AudioTags } from '../../../platform/media/audio-tags.js';
import type { ClosableSource } from '../../../platform/media/byte-source.js';
import { renderCover, UnusableCoverError, type CoverLimits, type RenderedCover } from '../../../platform/media/cover-image.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { LibraryRepository, NewSong, SongRow } from '../library.repository.js';
import type { QuotaRoom } from '../storage-quota.js';
import { nameWithoutExtension } from '../upload-key.js';

/**
 * The phases of ingesting an upload (see README.md). Each takes what it needs and returns
 * what the next one uses; each throws a typed error the client understands.
 */

export const UPLOAD_NOT_FOUND = 'We could not find that upload. Please upload the file again.';
export const ONLY_AUDIO = 'Only audio files can be uploaded: MP3, WAV, OGG, M4A or FLAC.';
export const UNREADABLE_AUDIO = 'This audio file could not be read. It may be damaged.';
export const NO_AUDIO = 'No playable audio was found in this file.';

/** The bytes are of an accepted kind but cannot be used (damaged, or no audio in them). */
export class UnprocessableAudioError extends UnprocessableError {}

/** Phase 1: the object exists and is within the limit (a presigned S3 PUT cannot cap the size). */
export async function locateUpload(storage: Storage, key: string, maxBytes: number): Promise<{ size: number }> {
  const info = await storage.stat(key);
  if (!info) throw new NotFoundError(UPLOAD_NOT_FOUND);
  if (info.size > maxBytes) throw fileTooLargeError(maxBytes);
  return { size: info.size };
}

/**
 * Phase 2: what the bytes say the file is; anything but accepted audio is a 415. Read from
 * storage where needed (past an ID3 tag of any size), not only the first bytes.
 */
export async function sniffUpload(file: ClosableSource): Promise<SniffedAudio> {
  if (file.size === 0) throw new UnsupportedMediaTypeError(ONLY_AUDIO);
  const sniffed = await sniffAudioFile(file);
  if (!sniffed) throw new UnsupportedMediaTypeError(ONLY_AUDIO);
  return sniffed;
}

/**
 * Phase 3: tags, stream facts and the embedded picture, read from storage by ranges (tags at
 * the end of a file too) within `timeoutMs`. A damaged file (the parser fails or stalls) or
 * one without an audio stream is refused with 422; an MP4 carrying video is not an audio file
 * (415). A truncated file whose remaining frames parse is accepted with the duration it
 * really has. The file is closed when this returns.
 */
/**
 * The tags completed by ffmpeg where the tag parser found no length or only a picture stream
 * (Ogg FLAC, a WebM written to a pipe, a WMA's attached cover): `local` gives the file on disk.
 */
export async function completeUploadTags(
  tags: AudioTags,
  ffmpeg: Pick<Ffmpeg, 'run' | 'start'> | undefined,
  local: <T>(use: (file: string) => Promise<T>) => Promise<T>,
): Promise<AudioTags> {
  if (!ffmpeg || !ffmpegWouldComplete(tags)) return tags;
  return local((file) => completedByFfmpeg(ffmpeg, file, tags));
}

export async function readUploadTags(file: ClosableSource, audio: SniffedAudio, timeoutMs: number): Promise<AudioTags> {
  let tags: AudioTags;
  try {
    tags = await readAudioTags(file, { mimeType: audio.mimeType }, timeoutMs);
  } catch (error) {
    // A stall (AudioTagsTimeoutError) and a parser failure mean the same to the uploader.
    throw new UnprocessableAudioError(UNREADABLE_AUDIO, error);
  }
  if (tags.hasVideo) throw new UnsupportedMediaTypeError(ONLY_AUDIO);
  if (!tags.hasAudio) throw new UnprocessableAudioError(NO_AUDIO);
  return tags;
}

export interface CoverKeys {
  coverKey: string;
  /** Where the thumbnail goes when first asked for (CoverThumbnails); nothing is there yet. */
  coverThumbKey: string;
}

/**
 * Phase 4: the embedded picture as a stored cover. A picture that cannot be used (not an
 * image, damaged, a decompression bomb) only costs the song its cover. The thumbnail is not
 * made here: a library import of thousands of songs would wait for thumbnails nobody looks
 * at, and the first look makes it in a few milliseconds.
 */
export async function storeCover(
  storage: Storage,
  picture: AudioTags['picture'],
  limits: CoverLimits,
  logger: Logger,
  context: { key: string },
): Promise<CoverKeys | null> {
  if (!picture) return null;
  return storeRenderedCover(storage, renderCover(picture.data, limits), logger, context);
}

/** storeCover with the picture's rendering in hand (a folder import renders an album's cover once for its songs). */
export async function storeRenderedCover(
  storage: Storage,
  rendering: Promise<RenderedCover>,
  logger: Logger,
  context: { key: string },
): Promise<CoverKeys | null> {
  let rendered: RenderedCover;
  try {
    rendered = await rendering;
  } catch (error) {
    if (!(error instanceof UnusableCoverError)) throw error;
    logger.warn({ key: context.key, reason: error.message }, 'embedded cover refused; the song is kept without a cover');
    return null;
  }
  const folder = `covers/${randomUUID()}`;
  const keys: CoverKeys = { coverKey: `${folder}/full.jpg`, coverThumbKey: `${folder}/thumb.jpg` };
  try {
    await storage.put(keys.coverKey, rendered.full, { contentType: rendered.contentType });
  } catch (error) {
    await storage.delete(keys.coverKey).catch(() => undefined);
    throw error;
  }
  return keys;
}

export interface UploadFacts {
  /** Null for a song of a music folder. */
  ownerId: number | null;
  fileName: string;
  storageKey: string;
  size: number;
  folderId: number;
}

/** Phase 5: the row to insert. displayName is "Artist - Title", else the title, else the file name. */
export function describeSong(upload: UploadFacts, audio: Pick<SniffedAudio, 'mimeType'>, tags: AudioTags, cover: CoverKeys | null): NewSong {
  const title = tags.title;
  const displayName = title ? (tags.artist ? `${tags.artist} - ${title}` : title) : nameWithoutExtension(upload.fileName);
  return {
    ownerId: upload.ownerId,
    displayName: displayName.slice(0, 500),
    fileName: upload.fileName,
    fileType: audio.mimeType,
    storageKey: upload.storageKey,
    size: upload.size,
    folderId: upload.folderId,
    title: tags.title,
    artist: tags.artist,
    album: tags.album,
    albumArtist: tags.albumArtist,
    genre: tags.genre,
    year: tags.year,
    trackNumber: tags.trackNumber,
    discNumber: tags.discNumber,
    durationSeconds: tags.durationSeconds,
    bitrate: tags.bitrate,
    sampleRate: tags.sampleRate,
    codec: tags.codec,
    mbzRecordingId: tags.musicBrainzRecordingId,
    mbzAlbumId: tags.musicBrainzAlbumId,
    mbzArtistId: tags.musicBrainzArtistId,
    compilation: tags.compilation,
    albumArtistSort: tags.albumArtistSort,
    artistSort: tags.artistSort,
    artists: tags.artists.length > 0 ? tags.artists : null,
    genres: tags.genres.length > 0 ? tags.genres : null,
    transcript: tags.lyrics,
    coverKey: cover?.coverKey ?? null,
    coverThumbKey: cover?.coverThumbKey ?? null,
  };
}

/**
 * Phase 6: one insert. When a concurrent upload-complete of the same key won the race, its
 * row is returned with `created: false`, and this attempt's own objects must be discarded.
 * With a quota `room`, the insert happens only when the owner's songs with this one fit it,
 * decided in the same step (else the room's refusal is thrown).
 */
export async function recordSong(repository: LibraryRepository, values: NewSong, room?: QuotaRoom): Promise<{ row: SongRow; created: boolean }> {
  if (!room) return repository.insert(values);
  const { ownerId } = values;
  if (typeof ownerId !== 'number') throw new Error('only a song with an owner counts against a storage quota');
  const recorded = await repository.insertWithin({ ...values, ownerId }, room.maxBytes);
  if ('usedBytes' in recorded) throw room.refuse(recorded.usedBytes);
  return recorded;
}
