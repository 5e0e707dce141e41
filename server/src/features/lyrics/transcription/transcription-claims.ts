import type { TaskRecord } from '../../../platform/tasks/task.store.js';
import type { Tasks } from '../../../platform/tasks/tasks.js';
import type { LyricsRepository } from '../lyrics.repository.js';

const LIVE_TASK_STATES: readonly TaskRecord['state'][] = ['queued', 'running'];
/** Each extra round means another caller changed the claim meanwhile; this many in a row is a fault. */
const MAX_CLAIM_ROUNDS = 10;

/**
 * One live transcription per song: the claim row (lyrics' own table) names the task, and the
 * platform's tasks say whether that task still runs. A second caller joins the live task; a
 * finished task's claim is taken over. The claim changes only by an insert its primary key
 * arbitrates or an update conditioned on the holder it replaces, so of callers at once one wins.
 */
export class TranscriptionClaims {
  constructor(private readonly deps: { repository: LyricsRepository; tasks: Pick<Tasks, 'peek'> }) {}

  /** The live transcription task of a song, if any. */
  async live(songId: number): Promise<{ taskId: string; ownerId: number } | undefined> {
    const taskId = await this.deps.repository.transcriptionClaim(songId);
    if (taskId === undefined) return undefined;
    const task = await this.deps.tasks.peek(taskId);
    return task && LIVE_TASK_STATES.includes(task.state) ? { taskId, ownerId: task.ownerId } : undefined;
  }

  /**
   * Claims the song's transcription for `taskId` unless a live task holds it: the answer is the
   * task that holds it now (ours when we won).
   */
  async claim(songId: number, taskId: string): Promise<string> {
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round += 1) {
      if (await this.deps.repository.insertTranscriptionClaim(songId, taskId)) return taskId;
      const holder = await this.deps.repository.transcriptionClaim(songId);
      // Its task was deleted (the claim goes with it): claim again.
      if (holder === undefined) continue;
      if (holder === taskId) return taskId;
      const task = await this.deps.tasks.peek(holder);
      if (task && LIVE_TASK_STATES.includes(task.state)) return holder;
      if (await this.deps.repository.replaceTranscriptionClaim(songId, holder, taskId)) return taskId;
    }
    throw new Error(`the transcription claim of song ${songId} kept changing`);
  }

  /** A task's state, progress, result and error (any owner: the song's transcription is shared). */
  async outcome(taskId: string): Promise<Pick<TaskRecord, 'state' | 'progress' | 'phase' | 'result' | 'error'> | undefined> {
    const task = await this.deps.tasks.peek(taskId);
    return task && { state: task.state, progress: task.progress, phase: task.phase, result: task.result, error: task.error };
  }
}
