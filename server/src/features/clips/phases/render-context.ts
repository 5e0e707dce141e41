import type { TextColorStretch } from '@encore/common/clip-subtitles';
import type { ClipSettings } from '@encore/common/clips.contract';
import type { ClipWord } from '@encore/common/clip-text';
import type { Ffmpeg, FfmpegInfo } from '../../../platform/media/ffmpeg.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { ClipRow } from '../clips.repository.js';

/** What the phases share while one clip renders; each phase fills in its part. */
export interface RenderContext {
  clip: ClipRow;
  settings: ClipSettings;
  /** The words drawn (common/clip-text): the settings' words, else the song's lyrics. */
  words: ClipWord[];
  /** False when the words share their lyrics line's time: drawn plain, not word by word. */
  karaoke: boolean;
  song: { storageKey: string; fileName: string; durationSeconds: number | null };
  width: number;
  height: number;
  /** A private temp folder, removed by the clean-up phase whatever happened. */
  workDir: string;
  ffmpeg: Ffmpeg;
  ffmpegInfo: FfmpegInfo;
  storage: Storage;
  signal: AbortSignal;
  /** 0-100 of the whole render and a phase label. */
  progress(percent: number, phase: string): Promise<void>;
  // Filled by phase 1.
  songFile?: string;
  mediaFiles?: string[];
  /** Clip start and length in song seconds. */
  start?: number;
  duration?: number;
  // Filled by phase 2.
  pictures?: string[];
  boundaries?: number[];
  /** colorMatch: the text colour from each picture's start. */
  textColors?: TextColorStretch[];
  // Filled by phase 3.
  subtitleFile?: string;
  // Filled by phase 5.
  outputFile?: string;
}

/** A failure of the user's input found while rendering: its message is shown to them. */
export class RenderInputError extends Error {}

export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`render phase order: ${what} is not set yet`);
  return value;
}
