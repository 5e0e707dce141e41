import { UPLOAD_RESET_DELAY_MS } from '@encore/common/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-client';
import { apiErrorText } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { songQueryKeys } from '../../lib/song-query-keys';
import { uploadFile } from './upload.api';
import { isMusicFile } from './upload-rules';

export type UploadItemStatus = 'pending' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  file: File;
  status: UploadItemStatus;
  /** 0..100; at most 95 until the server has the song. */
  progress: number;
  error: string | null;
  /** Refused before sending (over the size limit): it stays listed, and is never sent. */
  refused?: boolean;
}

/** SPEC 4: idle, uploading, complete (the button reads 'Upload Complete' for 3 s). */
export type UploadPhase = 'idle' | 'uploading' | 'complete';

let nextId = 0;

function sameFile(a: File, b: File): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

/**
 * The chosen files and their uploads, one after another, each with its own progress and
 * result. Uploads carry on if the user leaves the page; the song lists refresh when they land.
 */
export function useUploadQueue(maxBytes: number) {
  const t = useT();
  const client = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const update = (id: string, patch: Partial<UploadItem>) => setItems((current) => current.map((item) => (item.id === id ? { ...item, ...patch } : item)));

  /** Adds picked or dropped files; any non-music file clears the selection (SPEC 5). */
  function addFiles(files: readonly File[]): boolean {
    if (files.length === 0 || phase === 'uploading') return false;
    if (!files.every(isMusicFile)) {
      window.alert(t('uploadOnlyMusic'));
      clearTimeout(resetTimer.current);
      setItems([]);
      setPhase('idle');
      return false;
    }
    clearTimeout(resetTimer.current);
    setPhase('idle');
    // A file over the limit is flagged the moment it is chosen: no bytes are sent for it.
    // As the page states it (GET /api/config gives one decimal): 0.5, 10, 200.
    const limitMb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
    const tooLarge = files.filter((file) => file.size > maxBytes);
    for (const file of tooLarge) toast.error(t('uploadFailed'), { description: t('uploadTooLarge', { name: file.name, mb: limitMb }) });
    setItems((current) => {
      const kept = current.filter((item) => item.status !== 'done');
      const added = files
        .filter((file) => !kept.some((item) => sameFile(item.file, file)))
        .map<UploadItem>((file) =>
          file.size > maxBytes
            ? { id: `upload-${++nextId}`, file, status: 'failed', progress: 0, error: t('uploadTooLargeShort', { mb: limitMb }), refused: true }
            : { id: `upload-${++nextId}`, file, status: 'pending', progress: 0, error: null },
        );
      return [...kept, ...added];
    });
    return true;
  }

  function remove(id: string): void {
    if (phase === 'uploading') return;
    setItems((current) => current.filter((item) => item.id !== id));
  }

  async function uploadAll(): Promise<void> {
    if (phase !== 'idle') return;
    const waiting = items.filter((item) => !item.refused && (item.status === 'pending' || item.status === 'failed'));
    if (waiting.length === 0) {
      toast.error(t('noFileSelected'));
      return;
    }
    setPhase('uploading');
    let succeeded = 0;
    for (const item of waiting) {
      update(item.id, { status: 'uploading', progress: 0, error: null });
      try {
        await uploadFile(item.file, (progress) => update(item.id, { progress }));
        succeeded += 1;
        update(item.id, { status: 'done', progress: 100 });
      } catch (error) {
        const message = apiErrorText(error, { fallback: t('uploadFailed') });
        // A refusal the server explains (too large, not audio) is an answer, not a fault to log.
        if (!isApiError(error) || error.status >= 500) console.error('Upload failed', item.file.name, error);
        update(item.id, { status: 'failed', error: message });
        toast.error(t('uploadFailed'), { description: waiting.length > 1 ? `${item.file.name}: ${message}` : message });
      }
    }
    if (succeeded === 0) {
      setPhase('idle');
      return;
    }
    void client.invalidateQueries({ queryKey: songQueryKeys.all });
    toast.success(t('uploadSuccessful'), {
      description: waiting.length > 1 ? t('uploadSuccessfulCount', { done: succeeded, total: waiting.length }) : undefined,
    });
    setPhase('complete');
    resetTimer.current = setTimeout(() => {
      setItems((current) => current.filter((item) => item.status !== 'done'));
      setPhase('idle');
    }, UPLOAD_RESET_DELAY_MS);
  }

  const overall =
    phase === 'uploading' && items.length > 0
      ? Math.round(items.reduce((sum, item) => sum + (item.status === 'failed' ? 100 : item.progress), 0) / items.length)
      : 0;

  return {
    items,
    phase,
    /** Percent over the whole batch while uploading. */
    overall,
    canUpload: phase === 'idle' && items.some((item) => !item.refused && (item.status === 'pending' || item.status === 'failed')),
    addFiles,
    remove,
    uploadAll,
  };
}
