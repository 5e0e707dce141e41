import { documentFromWords } from '@encore/common/lyrics-document.rules';
import { LYRICS_MESSAGES, LYRICS_TRANSCRIBE_TASK_KIND, type TranscriptionResult, type TranscriptionStatus } from '@encore/common/lyrics.contract';
import type { Word } from '@encore/common/words.contract';
import { AppError, NotFoundError, ServiceUnavailableError } from '../../../platform/errors/app-errors.js';
import type { JobContext, JobKind } from '../../../platform/jobs/jobs.types.js';
import { TaskFailure } from '../../../platform/jobs/jobs.types.js';
import type { Logger } from '../../../platform/logger.js';
import type { TaskLimit, Tasks } from '../../../platform/tasks/tasks.js';
import type { LyricsService, LyricsView } from '../lyrics.service.js';
import type { TranscriptionEngine } from './transcription-engine.js';
import type { SongAudio } from './song-audio.js';
import type { TranscriptionClaims } from './transcription-claims.js';

export interface TranscribePayload {
  songId: number;
  /** Who asked: the uploader's result replaces lyrics; anyone else's only fills a song without. */
  requesterId: number;
  language: string | null;
}

/** A finished transcription as the task stores it: the contract's result, plus words that were not stored. */
export type TranscriptionTaskResult = TranscriptionResult & { stored: boolean; words?: Word[] };

export interface TranscriptionDeps {
  lyrics: LyricsService;
  claims: TranscriptionClaims;
  tasks: Tasks;
  job: JobKind<TranscribePayload>;
  /** Null when TRANSCRIBE_ENGINE=off. */
  engine: TranscriptionEngine | null;
  audio: SongAudio;
  timeoutMs: number;
  logger: Logger;
  /** How often a waiting caller looks at the task. */
  pollMs?: number;
  /** Transcriptions one user may have waiting or running (USER_MAX_TRANSCRIPTIONS); joining a song's running one is free. */
  limit?: TaskLimit;
}

/** The share of the task's progress bar each phase fills. */
const PHASES = { prepare: [0, 25], decode: [25, 35], transcribe: [35, 95] } as const;

/**
 * Transcription as a background job with real progress: one job per song at a time (a second
 * caller joins the running task), the lyrics stored in one transaction at the end (a crash or a
 * retry never leaves half of them), and the spec's waiting call built on the same task.
 */
export class TranscriptionService {
  constructor(private readonly deps: TranscriptionDeps) {}

  /** Starts (or joins) the song's transcription; answers the task id at once. */
  async start(songId: number, viewerId: number, language: string | null): Promise<string> {
    if (!this.deps.engine) throw new ServiceUnavailableError(LYRICS_MESSAGES.transcribeOff);
    const { song } = await this.deps.lyrics.writable(songId, viewerId);
    const live = await this.deps.claims.live(song.id);
    if (live) return live.taskId;
    const task = await this.deps.tasks.start({
      kind: LYRICS_TRANSCRIBE_TASK_KIND,
      ownerId: viewerId,
      subject: { type: 'song', id: String(song.id) },
      job: this.deps.job,
      payload: { songId: song.id, requesterId: viewerId, language },
      ...(this.deps.limit ? { limit: this.deps.limit } : {}),
    });
    const holder = await this.deps.claims.claim(song.id, task.id);
    if (holder !== task.id) {
      // Another caller claimed the song between our look and our start: join theirs.
      await this.deps.tasks.cancel(task.id, viewerId);
      return holder;
    }
    return task.id;
  }

  /** SPEC 7's `POST /files/{id}/transcribe`: waits for the task and answers the lyrics. */
  async transcribeAndWait(songId: number, viewerId: number, language: string | null, signal?: AbortSignal): Promise<LyricsView> {
    const taskId = await this.start(songId, viewerId, language);
    await this.wait(taskId, signal);
    return this.deps.lyrics.view(songId, viewerId);
  }

  /** The words of a song: stored ones when timed by word, else a transcription's. */
  async wordsOf(songId: number, viewerId: number, signal?: AbortSignal): Promise<Word[]> {
    const view = await this.deps.lyrics.view(songId, viewerId);
    if (view.stored?.document.words && view.stored.document.words.length > 0) return view.stored.document.words;
    if (!this.deps.engine) throw new ServiceUnavailableError(LYRICS_MESSAGES.transcribeOff);
    // Writing is not needed to get words: a transcription for someone who may not store
    // lyrics runs with the rule's 'absent' guard, and its words come back in the task result.
    const live = await this.deps.claims.live(songId);
    const taskId = live?.taskId ?? (await this.startUnchecked(songId, viewerId));
    const result = await this.wait(taskId, signal);
    if (result.words) return result.words;
    const after = await this.deps.lyrics.view(songId, viewerId);
    return after.stored?.document.words ?? [];
  }

  /** The song's live transcription (anyone may follow it), for the lyrics panel of other viewers. */
  async status(songId: number): Promise<TranscriptionStatus | null> {
    await this.deps.lyrics.requireSong(songId);
    const live = await this.deps.claims.live(songId);
    if (!live) return null;
    const outcome = await this.deps.claims.outcome(live.taskId);
    return outcome ? { taskId: live.taskId, state: outcome.state, progress: outcome.progress, phase: outcome.phase, error: outcome.error } : null;
  }

  /** The job's handler: idempotent; stores nothing until the words are complete. */
  async run(payload: TranscribePayload, context: JobContext): Promise<TranscriptionTaskResult> {
    const engine = this.deps.engine;
    if (!engine) throw new TaskFailure(LYRICS_MESSAGES.transcribeOff, { retry: false });
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(this.deps.timeoutMs)]);
    const song = await this.deps.lyrics.requireSong(payload.songId).catch((error: unknown) => {
      // The song was deleted: for good. A database hiccup is worth another try.
      throw error instanceof NotFoundError ? new TaskFailure(LYRICS_MESSAGES.notFound, { retry: false }) : error;
    });
    const report = (range: readonly [number, number]) => async (fraction: number, phase: string) => {
      await context.progress(Math.round(range[0] + (range[1] - range[0]) * Math.max(0, Math.min(1, fraction))), phase);
    };
    try {
      await context.progress(0, 'Preparing');
      await engine.prepare(signal, report(PHASES.prepare));
      const samples = await this.deps.audio.decode(song, signal, report(PHASES.decode));
      const output = await engine.transcribe({ samples, language: payload.language, signal, progress: report(PHASES.transcribe) });
      await context.progress(96, 'Saving the lyrics');
      const document = documentFromWords(output.words);
      const stored =
        document.text !== '' && (await this.deps.lyrics.store(song.id, payload.requesterId, document, 'transcribed', output.language ?? payload.language));
      const result: TranscriptionTaskResult = {
        songId: song.id,
        engine: engine.name,
        language: output.language ?? payload.language,
        wordCount: document.words?.length ?? 0,
        lineCount: document.text === '' ? 0 : document.text.split('\n').length,
        stored,
        ...(stored ? {} : { words: document.words ?? [] }),
      };
      return result;
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (signal.aborted)
        throw new TaskFailure(`The transcription took longer than ${Math.round(this.deps.timeoutMs / 1000)} s and was stopped (TRANSCRIBE_TIMEOUT_SECONDS)`);
      // The technical reason stays here, in the log; the web app tells the user what to do (issue 37).
      this.deps.logger.error({ err: error, songId: song.id }, 'transcription failed');
      if (error instanceof TaskFailure) throw error;
      if (error instanceof AppError) throw new TaskFailure(error.message);
      throw error;
    }
  }

  private async startUnchecked(songId: number, viewerId: number): Promise<string> {
    const task = await this.deps.tasks.start({
      kind: LYRICS_TRANSCRIBE_TASK_KIND,
      ownerId: viewerId,
      subject: { type: 'song', id: String(songId) },
      job: this.deps.job,
      payload: { songId, requesterId: viewerId, language: null },
      ...(this.deps.limit ? { limit: this.deps.limit } : {}),
    });
    const holder = await this.deps.claims.claim(songId, task.id);
    if (holder !== task.id) await this.deps.tasks.cancel(task.id, viewerId);
    return holder;
  }

  /** Until the task finishes: its result when done; the failure's message as an error otherwise. */
  private async wait(taskId: string, signal?: AbortSignal): Promise<Partial<TranscriptionTaskResult>> {
    const pollMs = this.deps.pollMs ?? 250;
    const deadline = Date.now() + this.deps.timeoutMs + 60_000;
    for (;;) {
      const outcome = await this.deps.claims.outcome(taskId);
      if (!outcome) throw new ServiceUnavailableError('The transcription task disappeared');
      if (outcome.state === 'done') return (outcome.result ?? {}) as Partial<TranscriptionTaskResult>;
      if (outcome.state === 'failed') throw new ServiceUnavailableError(outcome.error ?? 'Failed to transcribe lyrics');
      if (outcome.state === 'cancelled') throw new ServiceUnavailableError('The transcription was cancelled');
      if (signal?.aborted || Date.now() > deadline) throw new ServiceUnavailableError('The transcription is still running; follow its task');
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
