import { z } from 'zod';
import { text } from './input.contract.js';

/** Work a user waits for (a transcription, a render), with real progress. */
export const taskState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export type TaskState = z.infer<typeof taskState>;

export const task = z.object({
  id: z.string(),
  kind: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  state: taskState,
  /** 0-100, as the job reports it; 100 once done. */
  progress: z.number().int(),
  /** A short label of what the job is doing now. */
  phase: z.string().nullable(),
  result: z.unknown(),
  /** Set when failed: a message for the owner. */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type Task = z.infer<typeof task>;

export const taskIdParams = z.object({ id: text('The task id') });

/** The credential of the events stream (EventSource sends no headers): valid for a minute. */
export const eventsTicket = z.object({ ticket: z.string() });
export const eventsQuery = z.object({ ticket: text('The ticket') });

/** States after which a task no longer changes. */
export const FINISHED_TASK_STATES: readonly TaskState[] = ['done', 'failed', 'cancelled'];
