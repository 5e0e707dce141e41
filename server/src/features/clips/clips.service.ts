import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { clipFrameSize, clipSettingsInputSchema, type ClipSettings, type ClipStatusResponse, type ClipSummary } from '@encore/common/clips.contract';
import { clipText, type ClipText } from '@encore/common/clip-text';
import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import { TaskFailure, type JobContext } from '../../platform/jobs/jobs.types.js';
import type { Logger } from '../../platform/logger.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { InFlightLimit } from '../../platform/rate-limit/in-flight-limit.js';
import { sweepOrphans, type SweptFolder } from '../../platform/storage/orphan-sweep.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { TaskLimit, Tasks } from '../../platform/tasks/tasks.js';
import { limitMessagesEn } from '@encore/common/limit-messages';
import { songReferenceFromUrl, type SongCatalogue } from '../library/library.port.js';
import { checkClipMedia, type CheckedMedia, type ClipMediaLimits, type UploadedMedia } from './clip-media.check.js';
import { toClipStatus, toClipSummary } from './clips.mapper.js';
import type { ClipRow, ClipsRepository } from './clips.repository.js';
import { renderClipJob } from './clips.jobs.kind.js';
import { runRender } from './phases/run-render.js';
import { RenderInputError } from './phases/render-context.js';
import { clipLyricsOf, type ClipLyricsSource } from './clip-words.source.js';
import { CLIP_CONTENT_TYPES } from './phases/06-store.js';
import { makeWorkDir, sweepDeadWorkDirs } from './phases/work-dir.js';

/** Signed video URLs last this long: a status answer's URL plays for the rest of the session. */
export const CLIP_URL_TTL_SECONDS = 6 * 3600;
export const CLIP_NOT_FOUND = 'Clip not found';
/**
 * Stored media and videos younger than this may belong to a clip being created or a render
 * storing its output; older ones that no clip uses are removed by the hourly clean-up.
 */
export const CLIP_ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Where the clips feature stores: each object belongs to a clip or to nobody. */
const CLIP_FOLDERS = ['clip-media/', 'clips/'] as const;
/** A render folder nothing wrote to for this long is a leftover whoever its owner (a render's expiry is 6 h). */
const WORK_DIR_STALE_MS = 24 * 3600 * 1000;
export const TOO_MANY_CLIP_UPLOADS = limitMessagesEn.limitClipUploads;
const NO_SONG = 'Choose a song: songUrl must be the address Encore gave for one of its songs.';

export interface ClipsServiceDeps {
  repository: ClipsRepository;
  library: Pick<SongCatalogue, 'get' | 'songIdByStorageKey'>;
  storage: Storage;
  tasks: Tasks;
  ffmpeg: Ffmpeg;
  logger: Logger;
  limits: ClipMediaLimits;
  /** The site's origin: signed URLs on it are answered relative. */
  publicUrl: string;
  /** The song's lyrics (the lyrics feature): drawn when the clip brings no words of its own. */
  lyrics?: ClipLyricsSource;
  /** Create-clip uploads one user may have arriving at once (UPLOADS_PER_USER). */
  uploadsPerUser?: number;
  /** Renders one user may have waiting or running (USER_MAX_RENDERS); none when undefined. */
  renderLimit?: TaskLimit;
}

export interface CreateClipInput {
  settings: string | undefined;
  songUrl: string | undefined;
  media: UploadedMedia[];
}

/** Song2Clip: checks a request, keeps its media, starts the render task, renders (the job), answers status. */
export class ClipsService {
  private readonly uploads: InFlightLimit;

  constructor(private readonly deps: ClipsServiceDeps) {
    this.uploads = new InFlightLimit(deps.uploadsPerUser ?? 4, TOO_MANY_CLIP_UPLOADS);
  }

  /** Counts in one create-clip upload of `ownerId` (429 past the cap); the answer counts it out. */
  admitUpload(ownerId: number): () => void {
    return this.uploads.enter(String(ownerId));
  }

  /** Refuses (429) before the media arrive when the owner's renders are at their limit (`create` decides for good). */
  async assertCanRender(ownerId: number): Promise<void> {
    if (this.deps.renderLimit) await this.deps.tasks.assertBelowLimit(renderClipJob.name, ownerId, this.deps.renderLimit);
  }

  uploadsInFlight(ownerId: number): number {
    return this.uploads.count(String(ownerId));
  }

  /**
   * The hourly clean-up's step: media whose clip was never recorded (a crash between storing
   * them and the row) and videos stored for a clip deleted while it rendered.
   */
  async sweepOrphanedFiles(now: Date = new Date()): Promise<string[]> {
    const { storage, logger } = this.deps;
    const folders: SweptFolder[] = CLIP_FOLDERS.map((prefix) => ({ prefix, graceMs: CLIP_ORPHAN_GRACE_MS, referenced: (keys) => this.referencedKeys(keys) }));
    const removed = await sweepOrphans(storage, logger, folders, now);
    if (removed.length > 0) logger.info({ count: removed.length }, 'removed clip files that belong to no clip');
    await this.sweepDeadRenders(now);
    return removed;
  }

  /**
   * Of these storage keys, those a clip uses: its video, and its media while its render may
   * still need them (not once its task was cancelled or failed).
   */
  private async referencedKeys(keys: string[]): Promise<Set<string>> {
    const using = await this.deps.repository.usingKeys(keys);
    const ended = await this.deps.tasks.cancelledOrFailed(using.flatMap((clip) => (clip.taskId === null ? [] : [clip.taskId])));
    const wanted = new Set(keys);
    const used = using.flatMap((clip) => [clip.videoKey, ...(clip.taskId !== null && ended.has(clip.taskId) ? [] : clip.mediaKeys)]);
    return new Set(used.filter((key): key is string => key !== null && wanted.has(key)));
  }

  /** The temp folders (and still running ffmpeg) of renders whose process was killed. */
  private async sweepDeadRenders(now: Date = new Date()): Promise<void> {
    try {
      const removed = await sweepDeadWorkDirs({ staleBefore: new Date(now.getTime() - WORK_DIR_STALE_MS) });
      if (removed.length > 0) this.deps.logger.info({ count: removed.length }, 'removed the work of renders whose process was killed');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'could not sweep the work of killed renders');
    }
  }

  async create(ownerId: number, input: CreateClipInput): Promise<{ taskId: string; clipId: number }> {
    const settings = parseSettings(input.settings);
    const song = await this.songFor(input.songUrl, ownerId);
    const media = await this.checkMedia(input.media);
    const duration = song.durationSeconds ?? undefined;
    if (duration !== undefined && settings.startTime >= duration) throw new ValidationError(`settings.startTime: the song is ${duration.toFixed(1)} s long`);
    const outside = duration === undefined ? undefined : settings.words.find((word) => word.start > duration + 0.5);
    if (outside && duration !== undefined)
      throw new ValidationError(`settings.words: "${outside.text}" starts at ${outside.start} s, after the song's end (${duration.toFixed(1)} s)`);

    const folder = `clip-media/${ownerId}/${randomUUID()}`;
    const keys: string[] = [];
    let clipId: number | undefined;
    try {
      for (const [index, item] of input.media.entries()) {
        const checked = media[index] as CheckedMedia;
        const key = `${folder}/${index}.${checked.kind === 'image' ? checked.extension : 'video'}`;
        await this.deps.storage.put(key, createReadStream(item.file), checked.kind === 'image' ? { contentType: checked.contentType } : {});
        keys.push(key);
      }
      const { width, height } = clipFrameSize(settings.videoQuality, settings.aspectRatio);
      const clip = await this.deps.repository.create({
        ownerId,
        songId: song.id,
        songTitle: song.title ?? song.displayName,
        taskId: null,
        settings,
        mediaKind: media[0]?.kind === 'video' ? 'video' : 'images',
        mediaKeys: keys,
        format: settings.videoFormat,
        quality: settings.videoQuality,
        aspectRatio: settings.aspectRatio,
        width,
        height,
        videoKey: null,
        sizeBytes: null,
        durationSeconds: null,
        finishedAt: null,
      });
      clipId = clip.id;
      const task = await this.deps.tasks.start({
        kind: renderClipJob.name,
        ownerId,
        subject: { type: 'clip', id: String(clip.id) },
        job: renderClipJob,
        payload: { clipId: clip.id },
        ...(this.deps.renderLimit ? { limit: this.deps.renderLimit } : {}),
      });
      await this.deps.repository.setTask(clip.id, task.id);
      return { taskId: task.id, clipId: clip.id };
    } catch (error) {
      // Refused at the start (the render limit) or failed: no clip without a render is left.
      if (clipId !== undefined) await this.deps.repository.delete(clipId, ownerId).catch(() => undefined);
      await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
      throw error;
    }
  }

  async status(taskId: string, ownerId: number): Promise<ClipStatusResponse> {
    const task = await this.deps.tasks.get(taskId, ownerId);
    const clip = task ? await this.deps.repository.findByTask(taskId, ownerId) : undefined;
    if (!task || !clip) throw new NotFoundError(CLIP_NOT_FOUND);
    const ahead = task.state === 'queued' ? await this.deps.tasks.queuedAhead(task.id) : undefined;
    return toClipStatus(task, clip, clip.videoKey ? await this.videoUrl(clip) : null, ahead);
  }

  async list(ownerId: number): Promise<ClipSummary[]> {
    const rows = await this.deps.repository.listByOwner(ownerId);
    return Promise.all(
      rows.map(async (row) => {
        const task = row.taskId ? await this.deps.tasks.get(row.taskId, ownerId) : undefined;
        return toClipSummary(row, task, row.videoKey ? await this.videoUrl(row) : null, row.videoKey ? await this.videoUrl(row, true) : null);
      }),
    );
  }

  async delete(id: number, ownerId: number): Promise<void> {
    const clip = await this.deps.repository.find(id, ownerId);
    if (!clip) throw new NotFoundError(CLIP_NOT_FOUND);
    if (clip.taskId) await this.deps.tasks.cancel(clip.taskId, ownerId);
    await this.deps.repository.delete(id, ownerId);
    const keys = [...clip.mediaKeys, ...(clip.videoKey ? [clip.videoKey] : [])];
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.deps.logger.warn({ err: result.reason, key: keys[index] }, 'could not delete a clip object');
    });
  }

  /** The job: renders the clip through the phases; a retried job whose clip is done returns at once. */
  async render(clipId: number, context: JobContext): Promise<{ clipId: number; videoKey: string; wordCount?: number }> {
    const clip = await this.deps.repository.byId(clipId);
    if (!clip) throw new TaskFailure('The clip was deleted.', { retry: false });
    if (clip.videoKey) return { clipId, videoKey: clip.videoKey };
    const settings = clipSettingsInputSchema.parse(clip.settings);
    const song = clip.songId ? await this.deps.library.get(clip.songId, clip.ownerId).catch(() => undefined) : undefined;
    if (!song) {
      await this.discardMedia(clip);
      throw new TaskFailure('The song of this clip was deleted.', { retry: false });
    }
    const text = await this.textFor(settings, clip, song.durationSeconds);
    // A killed process's render on this machine (perhaps this clip's last attempt) stops first.
    await this.sweepDeadRenders();
    const workDir = await makeWorkDir();
    try {
      const { videoKey } = await runRender(
        {
          clip,
          settings,
          words: text.words,
          karaoke: text.karaoke,
          song: { storageKey: song.storageKey, fileName: song.fileName, durationSeconds: song.durationSeconds },
          width: clip.width,
          height: clip.height,
          workDir,
          ffmpeg: this.deps.ffmpeg,
          ffmpegInfo: await this.deps.ffmpeg.info(),
          storage: this.deps.storage,
          signal: context.signal,
          progress: (percent, phase) => context.progress(percent, phase),
        },
        this.deps.repository,
      );
      return { clipId, videoKey, wordCount: text.words.length };
    } catch (error) {
      // Cancelled, or refused in a way every retry would repeat: its media serve nothing more
      // (those of a render failing for good otherwise go with the hourly clean-up).
      if (context.signal.aborted || error instanceof RenderInputError) await this.discardMedia(clip);
      if (error instanceof RenderInputError) throw new TaskFailure(error.message, { retry: false });
      throw error;
    }
  }

  private async discardMedia(clip: ClipRow): Promise<void> {
    const results = await Promise.allSettled(clip.mediaKeys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected')
        this.deps.logger.warn({ err: result.reason, key: clip.mediaKeys[index] }, 'could not delete the media of an ended render');
    });
  }

  /**
   * What the clip draws, by the rule the editor's preview follows (common/clip-text): the
   * clip's words, else the song's lyrics (word times, else line times), with or without autoSubtitles.
   */
  private async textFor(settings: ClipSettings, clip: ClipRow, durationSeconds: number | null): Promise<ClipText> {
    const document =
      clip.songId !== null && !settings.words.some((word) => word.text.trim() !== '') ? await this.deps.lyrics?.lyricsFor(clip.songId) : undefined;
    return clipText(settings.words, document ? clipLyricsOf(document, durationSeconds) : null);
  }

  private async songFor(songUrl: string | undefined, viewerId: number) {
    const reference = songReferenceFromUrl(songUrl);
    if (!reference) throw new ValidationError(NO_SONG);
    const songId = 'songId' in reference ? reference.songId : await this.deps.library.songIdByStorageKey(reference.storageKey);
    if (songId === undefined) throw new ValidationError(NO_SONG);
    return this.deps.library.get(songId, viewerId).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new ValidationError(NO_SONG);
      throw error;
    });
  }

  private async checkMedia(media: UploadedMedia[]): Promise<CheckedMedia[]> {
    if (media.length === 0) throw new ValidationError('mediaFiles: add at least one picture or one video');
    if (media.length > this.deps.limits.maxImages) throw new ValidationError(`mediaFiles: at most ${this.deps.limits.maxImages} pictures`);
    const checked: CheckedMedia[] = [];
    for (const item of media) checked.push(await checkClipMedia(item, this.deps.limits, this.deps.ffmpeg));
    if (checked.some((item) => item.kind === 'video') && checked.length > 1) throw new ValidationError('mediaFiles: one video, or pictures, not both');
    return checked;
  }

  private async videoUrl(clip: ClipRow, download = false): Promise<string> {
    const format = clip.format as keyof typeof CLIP_CONTENT_TYPES;
    const url = await this.deps.storage.presignGet(clip.videoKey as string, {
      expiresInSeconds: CLIP_URL_TTL_SECONDS,
      contentType: CLIP_CONTENT_TYPES[format],
      ...(download ? { downloadName: `${(clip.songTitle ?? 'clip').slice(0, 80)} (clip).${format}` } : {}),
    });
    const origin = new URL(this.deps.publicUrl).origin;
    return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
  }
}

function parseSettings(json: string | undefined): ClipSettings {
  if (json === undefined || json.trim() === '') throw new ValidationError('settings: the clip settings (JSON) are required');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ValidationError('settings: not valid JSON');
  }
  const parsed = clipSettingsInputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? `settings.${issue.path.join('.')}` : 'settings';
    throw new ValidationError(`${field}: ${issue?.message ?? z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
