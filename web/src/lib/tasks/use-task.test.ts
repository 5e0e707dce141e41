import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Task } from '@encore/common/tasks.contract';
import { stubFetch } from '../../test/fetch-stub';
import { isApiError } from '../api-client';
import { displayedProgress } from './task-follower';
import { useTask } from './use-task';

let clock = 0;
function taskAt(progress: number, state: Task['state'] = 'running'): Task {
  clock += 1000;
  const at = new Date(Date.UTC(2026, 0, 1) + clock).toISOString();
  return {
    id: 't1',
    kind: 'render',
    subjectType: null,
    subjectId: null,
    state,
    progress,
    phase: 'rendering',
    result: state === 'done' ? { frames: 3 } : null,
    error: null,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    finishedAt: state === 'done' ? at : null,
  };
}

/** The browser's EventSource is the network boundary here, like fetch in stubFetch. */
class RecordingEventSource extends EventTarget {
  static opened: RecordingEventSource[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    RecordingEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(task: Task) {
    this.dispatchEvent(new MessageEvent('task', { data: JSON.stringify(task) }));
  }
}

describe('displayedProgress', () => {
  it('caps real progress at 95 until the task is done, then shows 100', () => {
    expect(displayedProgress(undefined)).toBe(0);
    expect(displayedProgress(taskAt(40))).toBe(40);
    expect(displayedProgress(taskAt(100))).toBe(95);
    expect(displayedProgress(taskAt(100, 'failed'))).toBe(95);
    expect(displayedProgress(taskAt(80, 'done'))).toBe(100);
  });
});

describe('useTask', () => {
  it('polls when there is no events stream, and stops once the task is done', async () => {
    const answers = [taskAt(30), taskAt(99), taskAt(100, 'done')];
    const { requests } = stubFetch({ 'GET /api/tasks/t1': () => ({ body: answers.length > 1 ? answers.shift() : answers[0] }) });
    const seen: number[] = [];
    const { result } = renderHook(() => {
      const view = useTask('t1', { EventSource: undefined, pollMs: 20 });
      if (view.task && seen.at(-1) !== view.progress) seen.push(view.progress);
      return view;
    });
    await waitFor(() => expect(result.current.task?.state).toBe('done'));
    expect(seen).toEqual([30, 95, 100]);
    const count = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requests.length).toBe(count);
  });

  it('follows the events stream with a ticket, never the session token, and closes it when done', async () => {
    localStorage.setItem('encore.token', 'session-token');
    RecordingEventSource.opened = [];
    stubFetch({ 'POST /api/tasks/events-ticket': { body: { ticket: '1.99.sig' } }, 'GET /api/tasks/t1': { body: taskAt(5) } });
    const { result } = renderHook(() => useTask('t1', { EventSource: RecordingEventSource as unknown as typeof EventSource }));
    await waitFor(() => expect(RecordingEventSource.opened).toHaveLength(1));
    const source = RecordingEventSource.opened[0]!;
    expect(source.url).toBe('/api/tasks/events?ticket=1.99.sig');
    expect(source.url).not.toContain('session-token');
    act(() => source.emit(taskAt(60)));
    expect(result.current.progress).toBe(60);
    act(() => source.emit({ ...taskAt(70), id: 'other' }));
    expect(result.current.progress).toBe(60);
    act(() => source.emit(taskAt(100, 'done')));
    expect(result.current.progress).toBe(100);
    expect(source.closed).toBe(true);
  });

  it("reports a task it may not read (another user's: 404)", async () => {
    stubFetch({});
    const { result } = renderHook(() => useTask('t1', { EventSource: undefined }));
    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(isApiError(result.current.error) && result.current.error.status).toBe(404);
    expect(result.current.task).toBeUndefined();
  });
});
