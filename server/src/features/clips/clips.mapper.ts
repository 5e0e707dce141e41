import type { AspectRatio, ClipStatus, ClipStatusResponse, ClipSummary, VideoFormat, VideoQuality } from '@encore/common/clips.contract';
import type { TaskRecord } from '../../platform/tasks/task.store.js';
import type { ClipRow } from './clips.repository.js';

const STATUS: Record<TaskRecord['state'], ClipStatus> = { queued: 'queued', running: 'running', done: 'done', failed: 'error', cancelled: 'cancelled' };

export const CLIP_CANCELLED = 'The render was cancelled.';
/** Done, but with no text: say so (no words were sent and the song has no lyrics). */
export const CLIP_WITHOUT_WORDS = 'The clip has no words: the song has no lyrics, and none were sent.';

/** The task decides (done only once its result is written); a clip whose task is gone is done if it has its video. */
function statusOf(task: TaskRecord | undefined, clip: ClipRow): ClipStatus {
  if (!task) return clip.videoKey ? 'done' : 'error';
  const status = STATUS[task.state];
  return status === 'done' && !clip.videoKey ? 'error' : status;
}

/** A waiting render: how many are in front of it (renders run a few at a time per process). */
export function queuedMessage(ahead: number | undefined): string {
  if (!ahead) return 'Waiting in the queue';
  return `Waiting in the queue (${ahead} ${ahead === 1 ? 'render' : 'renders'} ahead)`;
}

function messageOf(task: TaskRecord | undefined, status: ClipStatus, ahead?: number): string | null {
  if (status === 'queued') return queuedMessage(ahead);
  if (status === 'error') return task?.error ?? 'The render failed.';
  if (status === 'cancelled') return CLIP_CANCELLED;
  if (status === 'done') return (task?.result as { wordCount?: number } | null | undefined)?.wordCount === 0 ? CLIP_WITHOUT_WORDS : null;
  return task?.phase ?? null;
}

/** `ahead`: for a queued render, the renders in front of it. */
export function toClipStatus(task: TaskRecord, clip: ClipRow, videoUrl: string | null, ahead?: number): ClipStatusResponse {
  const status = statusOf(task, clip);
  return {
    status,
    video_url: status === 'done' ? videoUrl : null,
    message: messageOf(task, status, ahead),
    progress: status === 'done' ? 100 : Math.max(0, Math.min(100, task.progress)),
    clip_id: clip.id,
  };
}

export function toClipSummary(clip: ClipRow, task: TaskRecord | undefined, videoUrl: string | null, downloadUrl: string | null): ClipSummary {
  const status = statusOf(task, clip);
  return {
    id: clip.id,
    taskId: clip.taskId,
    songId: clip.songId,
    songTitle: clip.songTitle,
    status,
    format: clip.format as VideoFormat,
    quality: clip.quality as VideoQuality,
    aspectRatio: clip.aspectRatio as AspectRatio,
    width: clip.width,
    height: clip.height,
    durationSeconds: clip.durationSeconds,
    sizeBytes: clip.sizeBytes,
    videoUrl,
    downloadUrl,
    error: status === 'error' ? messageOf(task, status) : null,
    createdAt: clip.createdAt.toISOString(),
  };
}
