import { z } from 'zod';
import { CLIP_FONT_FILES } from './clip-fonts.js';
import { defineEndpoint } from './endpoint.js';
import { idField, text } from './input.contract.js';
import { DEFAULT_TEXT_STYLE, textStyleSchema } from './text-style.contract.js';
import { WORD_TIME_MAX, wordsSchema } from './words.contract.js';

/**
 * Song2Clip: SPEC 3's Clip settings (the text style of text-style.contract.ts plus the clip's
 * words, transitions, video and audio settings and the four advanced booleans), beyond the spec
 * an aspect ratio and a start/end within the song, the limits the server enforces, and the
 * answers of `POST /api/clips/create-clip` and `GET /api/clips/clip-status/{task_id}` (SPEC 7,
 * DECISIONS: clip service under /api/clips).
 */

export const TRANSITIONS = ['smooth', 'sharp', 'elastic', 'none'] as const;
export const VIDEO_QUALITIES = ['low', 'medium', 'high', 'ultra'] as const;
export const VIDEO_FORMATS = ['mp4', 'webm', 'gif'] as const;
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

export type Transition = (typeof TRANSITIONS)[number];
export type VideoQuality = (typeof VIDEO_QUALITIES)[number];
export type VideoFormat = (typeof VIDEO_FORMATS)[number];
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** SPEC 3 and 9: low 480p, medium 720p, high 1080p, ultra 4K (the short side of the frame). */
export const VIDEO_QUALITY_LINES: Record<VideoQuality, number> = { low: 480, medium: 720, high: 1080, ultra: 2160 };
export const VIDEO_QUALITY_LABELS: Record<VideoQuality, string> = { low: '480p', medium: '720p', high: '1080p', ultra: '4K' };

/** The output frame in pixels for a quality and an aspect ratio (even numbers, as encoders need). */
export function clipFrameSize(quality: VideoQuality, aspectRatio: AspectRatio): { width: number; height: number } {
  const short = VIDEO_QUALITY_LINES[quality];
  const long = Math.round((short * 16) / 9 / 2) * 2;
  if (aspectRatio === '1:1') return { width: short, height: short };
  if (aspectRatio === '9:16') return { width: short, height: long };
  return { width: long, height: short };
}

/** SPEC 5's sliders of the Effects tab: [min, max, step]. */
export const CLIP_SETTING_LIMITS = {
  framerate: { min: 15, max: 60, step: 1 },
  audioFade: { min: 0, max: 3, step: 0.1 },
} as const;

/** SPEC 9: the clip status is polled every 2 s; the editor's default duration is 3 s. */
export const CLIP_STATUS_POLL_MS = 2000;
export const CLIP_DEFAULT_DURATION_SECONDS = 3;

/**
 * What one create-clip request may carry. The server's configuration may lower or raise the
 * byte and duration limits (`CLIP_*` variables); these are the defaults the editor states.
 */
export const CLIP_LIMITS = {
  /** Pictures in one clip. */
  maxImages: 30,
  /** One video, or pictures: never both, never more than one video. */
  maxVideos: 1,
  maxImageBytes: 20 * 1024 * 1024,
  maxVideoBytes: 200 * 1024 * 1024,
  /** A background video longer than this is refused (it is trimmed or looped to the clip anyway). */
  maxVideoSeconds: 15 * 60,
  /** Pictures beyond this many pixels (e.g. 16000 × 16000) are refused before decoding. */
  maxImagePixels: 50_000_000,
  /** Width/height or height/width beyond this is refused (a 1 × 5000 strip is not a picture). */
  maxImageAspect: 10,
  /** The longest clip rendered (end − start). */
  maxClipSeconds: 15 * 60,
} as const;

/** The multipart field names of create-clip (SPEC 7). */
export const CLIP_FORM_FIELDS = { settings: 'settings', songUrl: 'songUrl', mediaFiles: 'mediaFiles' } as const;

function rangedNumber(label: string, min: number, max: number) {
  const message = `${label} must be from ${min} to ${max}`;
  return z.number({ error: message }).finite({ error: message }).min(min, { error: message }).max(max, { error: message });
}

const timeMessage = 'Clip start and end are seconds within the song';
const clipTime = z.number({ error: timeMessage }).finite({ error: timeMessage }).min(0, { error: timeMessage }).max(WORD_TIME_MAX, { error: timeMessage });

export const clipSettingsSchema = textStyleSchema
  .extend({
    /** SPEC 3: replaced at creation by the words held in app state; may be empty. */
    words: wordsSchema,
    transitions: z.enum(TRANSITIONS),
    videoQuality: z.enum(VIDEO_QUALITIES),
    videoFormat: z.enum(VIDEO_FORMATS),
    framerate: rangedNumber('Framerate', CLIP_SETTING_LIMITS.framerate.min, CLIP_SETTING_LIMITS.framerate.max).int({
      error: 'Framerate must be a whole number',
    }),
    audioFadeIn: rangedNumber('Audio fade in', CLIP_SETTING_LIMITS.audioFade.min, CLIP_SETTING_LIMITS.audioFade.max),
    audioFadeOut: rangedNumber('Audio fade out', CLIP_SETTING_LIMITS.audioFade.min, CLIP_SETTING_LIMITS.audioFade.max),
    autoSync: z.boolean(),
    colorMatch: z.boolean(),
    beatDetection: z.boolean(),
    autoSubtitles: z.boolean(),
    /** Beyond the spec: 16:9 (landscape), 9:16 (Reels, Shorts, TikTok), 1:1. */
    aspectRatio: z.enum(ASPECT_RATIOS),
    /** Beyond the spec: the part of the song the clip shows; `endTime` null means to the song's end. */
    startTime: clipTime,
    endTime: clipTime.nullable(),
  })
  .refine((settings) => settings.endTime === null || settings.endTime > settings.startTime, {
    error: 'The clip must end after it starts',
    path: ['endTime'],
  });

export type ClipSettings = z.infer<typeof clipSettingsSchema>;

/** SPEC 3's defaults (and 16:9, the whole song, beyond the spec). */
export const DEFAULT_CLIP_SETTINGS: ClipSettings = {
  ...DEFAULT_TEXT_STYLE,
  words: [],
  transitions: 'smooth',
  videoQuality: 'high',
  videoFormat: 'mp4',
  framerate: 30,
  audioFadeIn: 0.5,
  audioFadeOut: 0.5,
  autoSync: false,
  colorMatch: false,
  beatDetection: false,
  autoSubtitles: false,
  aspectRatio: '16:9',
  startTime: 0,
  endTime: null,
};

/**
 * The `settings` field as a client sends it: any subset of the settings over the defaults
 * (a client written against SPEC 3 sends all of them but the aspect ratio and start/end).
 * Unknown fields are ignored; a known field of the wrong type or out of range is refused with
 * a message naming it.
 */
export const clipSettingsInputSchema = z.preprocess((value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const input = value as Partial<ClipSettings>;
  return {
    ...DEFAULT_CLIP_SETTINGS,
    ...input,
    // Only an object is filled in: anything else (a string, null, a list) is refused by the schema.
    textStyles:
      input.textStyles === undefined
        ? DEFAULT_CLIP_SETTINGS.textStyles
        : isPlainObject(input.textStyles)
          ? { ...DEFAULT_CLIP_SETTINGS.textStyles, ...input.textStyles }
          : input.textStyles,
  };
}, clipSettingsSchema);

function isPlainObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `POST /api/clips/create-clip` → 202 (SPEC 7: the field read is task_id). */
export const createClipResponse = z.object({ task_id: z.string() });
export type CreateClipResponse = z.infer<typeof createClipResponse>;

/** SPEC 7: done, error, anything else means "poll again". */
export const CLIP_STATUSES = ['queued', 'running', 'done', 'error', 'cancelled'] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

export const clipStatusParams = z.object({ task_id: text('The task id').min(1).max(100) });

/** `GET /api/clips/clip-status/{task_id}`. */
export const clipStatusResponse = z.object({
  status: z.enum(CLIP_STATUSES),
  /** Relative to the site (e.g. `/api/clips/42/video`); plays with Range requests. Null until done. */
  video_url: z.string().nullable(),
  /** Why it failed, or what it is doing now. */
  message: z.string().nullable(),
  /** 0-100: ffmpeg's real progress; 100 once done. */
  progress: z.number().int().min(0).max(100),
  clip_id: z.number().int().nullable(),
});
export type ClipStatusResponse = z.infer<typeof clipStatusResponse>;

/** One of the caller's clips (`GET /api/clips`, the "My clips" list). */
export const clipSummary = z.object({
  id: z.number().int(),
  taskId: z.string().nullable(),
  songId: z.number().int().nullable(),
  songTitle: z.string().nullable(),
  status: z.enum(CLIP_STATUSES),
  format: z.enum(VIDEO_FORMATS),
  quality: z.enum(VIDEO_QUALITIES),
  aspectRatio: z.enum(ASPECT_RATIOS),
  width: z.number().int(),
  height: z.number().int(),
  durationSeconds: z.number().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** Relative to the site; null until the render is done. */
  videoUrl: z.string().nullable(),
  /** Relative to the site: the same video as an attachment (the download button). */
  downloadUrl: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type ClipSummary = z.infer<typeof clipSummary>;

export const clipListResponse = z.object({ clips: z.array(clipSummary) });
export type ClipListResponse = z.infer<typeof clipListResponse>;

export const clipIdParams = z.object({ id: idField('The clip id') });

/** The file type a user may pick in the uploader (SPEC 2: video/* and image/*). */
export const CLIP_MEDIA_ACCEPT = 'video/*,image/*';

/** A font file the clip text is drawn with; anything else is not found. */
export const clipFontParams = z.object({ file: z.enum(CLIP_FONT_FILES, { error: 'No such font' }) });

const tags = ['clips'];

/** Song2Clip under `/clips` (DECISIONS): create-clip, clip-status, the owner's clips, and the fonts libass draws with. */
export const clipsEndpoints = {
  /** Multipart (CLIP_FORM_FIELDS): the server reads the parts itself, so there is no body schema. */
  create: defineEndpoint({
    method: 'POST',
    path: '/clips/create-clip',
    multipart: true,
    response: createClipResponse,
    status: 202,
    summary: 'Start rendering a clip: multipart `settings` (JSON), `songUrl` (an Encore song URL), `mediaFiles` (pictures, or one video)',
    tags,
  }),
  status: defineEndpoint({
    method: 'GET',
    path: '/clips/clip-status/:task_id',
    params: clipStatusParams,
    response: clipStatusResponse,
    summary: "A render's status, progress and (once done) video URL",
    tags,
  }),
  list: defineEndpoint({ method: 'GET', path: '/clips', response: clipListResponse, summary: "The caller's clips, newest first", tags }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/clips/:id',
    params: clipIdParams,
    status: 204,
    summary: 'Delete a clip (a running render is cancelled)',
    tags,
  }),
  /** The font file itself (no response schema); public, the browser preview loads it with @font-face. */
  font: defineEndpoint({
    method: 'GET',
    path: '/clips/fonts/:file',
    params: clipFontParams,
    summary: 'A font the clip text is drawn with (SIL OFL), for the browser preview',
    tags,
  }),
};
