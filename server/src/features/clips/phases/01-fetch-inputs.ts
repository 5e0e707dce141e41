import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { clipSpan } from '@encore/common/clip-timeline';
import { RenderInputError, type RenderContext } from './render-context.js';

/** Phase 1: the song and the media from storage into the work folder; the clip's start and length. */
export async function fetchInputs(context: RenderContext): Promise<void> {
  await context.progress(1, 'Fetching the song and media');
  const songFile = path.join(
    context.workDir,
    `song${
      path
        .extname(context.song.fileName)
        .replace(/[^.a-z0-9]/gi, '')
        .slice(0, 6) || '.audio'
    }`,
  );
  await copyFromStorage(context, context.song.storageKey, songFile);
  context.songFile = songFile;
  context.mediaFiles = [];
  for (const [index, key] of context.clip.mediaKeys.entries()) {
    const file = path.join(
      context.workDir,
      `media-${index}${path
        .extname(key)
        .replace(/[^.a-z0-9]/gi, '')
        .slice(0, 6)}`,
    );
    await copyFromStorage(context, key, file);
    context.mediaFiles.push(file);
  }
  const songLength = context.song.durationSeconds ?? Infinity;
  const start = context.settings.startTime;
  if (Number.isFinite(songLength) && start >= songLength)
    throw new RenderInputError(`The clip starts at ${start} s, after the song's end (${songLength.toFixed(1)} s).`);
  const { end } = clipSpan(context.settings, songLength);
  if (!Number.isFinite(end)) throw new RenderInputError("The song's length is unknown: choose the clip's end.");
  context.start = start;
  context.duration = Math.round((end - start) * 1000) / 1000;
}

async function copyFromStorage(context: RenderContext, key: string, file: string): Promise<void> {
  const object = await context.storage.get(key);
  await pipeline(object.stream, createWriteStream(file, { flags: 'wx' }), { signal: context.signal });
}
