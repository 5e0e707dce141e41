import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { ClipsRepository } from '../clips.repository.js';
import { required, type RenderContext } from './render-context.js';

export const CLIP_CONTENT_TYPES = { mp4: 'video/mp4', webm: 'video/webm', gif: 'image/gif' } as const;

/**
 * Phase 6: the finished file into storage (written atomically: a failed render stores nothing),
 * then the row points at it. A clip that already has a video (a retried job) keeps it.
 */
export async function store(context: RenderContext, repository: ClipsRepository): Promise<{ videoKey: string; sizeBytes: number }> {
  await context.progress(98, 'Saving the clip');
  const file = required(context.outputFile, 'output file');
  const format = context.clip.format as keyof typeof CLIP_CONTENT_TYPES;
  const key = `clips/${context.clip.ownerId}/${randomUUID()}/clip.${format}`;
  const { size } = await stat(file);
  await context.storage.put(key, createReadStream(file), { contentType: CLIP_CONTENT_TYPES[format] });
  try {
    await repository.finish(context.clip.id, { videoKey: key, sizeBytes: size, durationSeconds: required(context.duration, 'duration') });
  } catch (error) {
    await context.storage.delete(key);
    throw error;
  }
  return { videoKey: key, sizeBytes: size };
}
