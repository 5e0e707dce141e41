import { FINISHED_TASK_STATES, task as taskSchema, tasksEndpoints, type Task } from '@encore/common/tasks.contract';
import { callEndpoint, endpointUrl } from '../endpoint-client';

/** How often a task is polled when the events stream is not available. */
export const TASK_POLL_MS = 2000;

export const isFinished = (task: Task) => FINISHED_TASK_STATES.includes(task.state);

/** The bar's percentage: real progress capped at 95 until done, then 100 (DECISIONS: real progress). */
export function displayedProgress(task: Task | undefined): number {
  if (!task) return 0;
  if (task.state === 'done') return 100;
  return Math.min(95, Math.max(0, task.progress));
}

export interface FollowOptions {
  /** The browser's EventSource; without one (or when the stream fails) the task is polled. */
  EventSource?: typeof EventSource | undefined;
  pollMs?: number;
}

export const fetchTask = (taskId: string, signal?: AbortSignal) =>
  callEndpoint(tasksEndpoints.get, { params: { id: taskId }, fallbackMessage: 'Could not load the task.', signal });

/**
 * Follows one task until it finishes: the task events stream (Server-Sent Events) when the
 * browser has one, falling back to polling. Calls `onTask` with each new state and `onError`
 * when the task cannot be read (404: not yours or gone). Returns the stop function.
 */
export function followTask(taskId: string, onTask: (task: Task) => void, onError: (error: unknown) => void, options: FollowOptions = {}): () => void {
  const pollMs = options.pollMs ?? TASK_POLL_MS;
  const Source = 'EventSource' in options ? options.EventSource : globalThis.EventSource;
  const controller = new AbortController();
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let latest: Task | undefined;

  const stop = () => {
    stopped = true;
    controller.abort();
    source?.close();
    clearTimeout(timer);
  };
  const take = (task: Task) => {
    if (stopped || task.id !== taskId) return;
    // Events and polls may cross: never step back to an older state.
    if (latest && task.updatedAt < latest.updatedAt) return;
    latest = task;
    onTask(task);
    if (isFinished(task)) stop();
  };
  const read = async () => {
    try {
      take(await fetchTask(taskId, controller.signal));
    } catch (error) {
      if (!stopped) {
        stop();
        onError(error);
      }
    }
  };
  const poll = async () => {
    await read();
    if (!stopped) timer = setTimeout(() => void poll(), pollMs);
  };

  const openStream = async (EventSourceClass: typeof EventSource) => {
    try {
      const { ticket } = await callEndpoint(tasksEndpoints.eventsTicket, { fallbackMessage: 'Could not follow the task.', signal: controller.signal });
      if (stopped) return;
      source = new EventSourceClass(endpointUrl(tasksEndpoints.events, { query: { ticket } }));
      source.addEventListener('task', (event) => {
        const parsed = taskSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
        if (parsed.success) take(parsed.data);
      });
      source.addEventListener('error', () => {
        // The ticket is one-minute: rather than reconnect with it, fall back to polling.
        source?.close();
        if (!stopped) void poll();
      });
      source.addEventListener('open', () => void read());
    } catch {
      if (!stopped) void poll();
    }
  };

  if (Source) void openStream(Source);
  else void poll();
  return stop;
}
