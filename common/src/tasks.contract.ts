import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
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

const tags = ['tasks'];

/** A task's owner reads and cancels it, and follows the changes of their tasks as Server-Sent Events. */
export const tasksEndpoints = {
  get: defineEndpoint({ method: 'GET', path: '/tasks/:id', params: taskIdParams, response: task, summary: 'One of your tasks: state and progress', tags }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/tasks/:id/cancel',
    params: taskIdParams,
    response: task,
    summary: 'Cancel one of your tasks (a finished one stays as it is)',
    tags,
  }),
  eventsTicket: defineEndpoint({
    method: 'POST',
    path: '/tasks/events-ticket',
    response: eventsTicket,
    summary: 'A one-minute ticket for the task events stream (EventSource sends no headers)',
    tags,
  }),
  /** A text/event-stream of `task` events, not JSON: no response schema; the browser opens it with EventSource. */
  events: defineEndpoint({
    method: 'GET',
    path: '/tasks/events',
    query: eventsQuery,
    summary: "Server-Sent Events: each change of the ticket owner's tasks",
    tags,
  }),
};
