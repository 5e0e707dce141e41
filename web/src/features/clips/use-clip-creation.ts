import { CLIP_STATUS_POLL_MS, type ClipSettings } from '@encore/common/clips.contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-client';
import { useT } from '../../lib/i18n/i18n.store';
import { createClip, deleteClip, fetchClipStatus, songUrlFor } from './clips.api';

export interface ClipCreationState {
  busy: boolean;
  /** 0-100: the renderer's real progress (DECISIONS). */
  progress: number;
  /** What the renderer says it is doing. */
  message: string | null;
  /** The created clip's video, relative to the site (SPEC 7: video_url). */
  videoUrl: string | null;
  clipId: number | null;
  /** The render's task, known as soon as create-clip answers (before the first status names the clip). */
  taskId: string | null;
}

const IDLE: ClipCreationState = { busy: false, progress: 0, message: null, videoUrl: null, clipId: null, taskId: null };

/** Cancel: the clip is deleted, which stops its render; a task whose clip is not yet known is asked for it first. */
async function discard(taskId: string | null, clipId: number | null): Promise<boolean> {
  const id = clipId ?? (taskId ? (await fetchClipStatus(taskId)).clip_id : null);
  if (id === null) return false;
  await deleteClip(id);
  return true;
}

export interface CreateClipRequest {
  songId: number | null;
  settings: ClipSettings;
  files: readonly File[];
}

function reason(error: unknown): string {
  return isApiError(error) || error instanceof Error ? error.message : String(error);
}

/**
 * SPEC 3 and 8's clip creation: idle, busy after Create Clip, then polling clip-status every
 * 2 s until done (the URL is stored, 'Clip created successfully!') or error ('Error creating
 * clip: …'); a failed poll says 'Error checking status: …', a failed creation 'Error: …'. Every
 * alert ends the busy state. Cancel deletes the clip, which stops its render.
 */
export function useClipCreation() {
  const t = useT();
  const [state, setState] = useState<ClipCreationState>(IDLE);
  // The run being followed: a cancel or unmount bumps it, so a late answer is ignored.
  const run = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      run.current += 1;
      clearTimeout(timer.current);
    },
    [],
  );

  const follow = useCallback(
    async (taskId: string, id: number) => {
      const wait = () => new Promise<void>((resolve) => (timer.current = setTimeout(resolve, CLIP_STATUS_POLL_MS)));
      for (;;) {
        let status;
        try {
          status = await fetchClipStatus(taskId);
        } catch (error) {
          if (run.current !== id) return;
          setState((current) => ({ ...current, busy: false, progress: 0, message: null }));
          toast.error(t('clipStatusError', { message: reason(error) }));
          return;
        }
        if (run.current !== id) return;
        if (status.status === 'done') {
          setState({ busy: false, progress: 100, message: null, videoUrl: status.video_url, clipId: status.clip_id, taskId });
          toast.success(t('clipCreated'));
          return;
        }
        if (status.status === 'error' || status.status === 'cancelled') {
          setState((current) => ({ ...current, busy: false, progress: 0, message: null }));
          toast.error(t('clipCreateError', { message: status.message ?? status.status }));
          return;
        }
        const { progress, message, clip_id: clipId } = status;
        setState((current) => ({ ...current, progress, message, clipId: clipId ?? current.clipId }));
        await wait();
        if (run.current !== id) return;
      }
    },
    [t],
  );

  const create = useCallback(
    async ({ songId, settings, files }: CreateClipRequest) => {
      if (songId === null) {
        toast.error(t('clipSelectSongFirst'));
        return;
      }
      run.current += 1;
      const id = run.current;
      clearTimeout(timer.current);
      setState({ ...IDLE, busy: true });
      try {
        const { task_id: taskId } = await createClip(settings, songUrlFor(songId), files);
        if (run.current !== id) {
          // Cancelled while the files were on their way: the render the answer started is stopped too.
          await discard(taskId, null).catch(() => undefined);
          return;
        }
        setState((current) => ({ ...current, taskId }));
        await follow(taskId, id);
      } catch (error) {
        if (run.current !== id) return;
        setState(IDLE);
        toast.error(t('clipError', { message: reason(error) }));
      }
    },
    [follow, t],
  );

  const cancel = useCallback(async () => {
    const { clipId, taskId } = state;
    run.current += 1;
    clearTimeout(timer.current);
    setState(IDLE);
    // Before create-clip has answered there is nothing to stop yet: create() stops it on arrival.
    if (clipId === null && taskId === null) {
      toast(t('clipCancelled'));
      return;
    }
    try {
      if (await discard(taskId, clipId)) toast(t('clipCancelled'));
    } catch (error) {
      toast.error(t('clipError', { message: reason(error) }));
    }
  }, [state, t]);

  /** Back to the live canvas (the Created Clip Preview panel's Edit again). */
  const reset = useCallback(() => setState(IDLE), []);

  return { ...state, create, cancel, reset };
}
