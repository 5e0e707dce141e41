import { useEffect, useState } from 'react';
import type { Task } from '@encore/common/tasks.contract';
import { displayedProgress, followTask, type FollowOptions } from './task-follower';

export interface TaskView {
  task: Task | undefined;
  /** For the progress bar: capped at 95 until done, then 100. */
  progress: number;
  error: unknown;
}

/** Follows a task (SSE, else polling) and gives what its progress bar shows. */
export function useTask(taskId: string | null | undefined, options?: FollowOptions): TaskView {
  const [state, setState] = useState<{ id: string | null | undefined; task: Task | undefined; error: unknown }>({
    id: taskId,
    task: undefined,
    error: undefined,
  });
  useEffect(() => {
    // A new task id: the state of the previous one is ignored below until this one reports.
    if (!taskId) return undefined;
    return followTask(
      taskId,
      (task) => setState({ id: taskId, task, error: undefined }),
      (error) => setState({ id: taskId, task: undefined, error }),
      options,
    );
    // The options are read once per task.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [taskId]);
  const task = state.id === taskId ? state.task : undefined;
  return { task, progress: displayedProgress(task), error: state.id === taskId ? state.error : undefined };
}
