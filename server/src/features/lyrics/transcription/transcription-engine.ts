import type { Word } from '@encore/common/words.contract';
import { TaskFailure } from '../../../platform/jobs/jobs.types.js';

/** Audio as engines take it: 16 kHz mono samples in -1..1. */
export const ENGINE_SAMPLE_RATE = 16_000;

export interface EngineProgress {
  /** 0..1 of the engine's own work; the caller maps it into the task's bar. */
  (fraction: number, phase: string): Promise<void>;
}

export interface TranscriptionInput {
  samples: Float32Array;
  /** ISO 639-1 code, or null to let the engine detect it. */
  language: string | null;
  signal: AbortSignal;
  progress: EngineProgress;
}

export interface TranscriptionOutput {
  words: Word[];
  language: string | null;
}

/**
 * One way of turning speech into timed words. `prepare` makes the engine ready (a model
 * downloaded or found) before any audio is decoded, so a missing model fails fast.
 */
export interface TranscriptionEngine {
  readonly name: 'local' | 'openai';
  prepare(signal: AbortSignal, progress: EngineProgress): Promise<void>;
  transcribe(input: TranscriptionInput): Promise<TranscriptionOutput>;
}

/** The engine cannot run as configured; the message says what to set. Shown to the user. */
export class EngineUnavailableError extends TaskFailure {}
