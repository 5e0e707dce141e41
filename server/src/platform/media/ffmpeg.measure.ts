import type { AudioTags } from './audio-tags.js';
import type { Ffmpeg } from './ffmpeg.js';
import { songInputArgs } from './ffmpeg.input.js';

/**
 * What ffmpeg reads from a song that its tags do not say. Both open the file as a song
 * (`songInputArgs`: the song demuxers only) and never write anything but to a pipe.
 */

/**
 * The length of the song's first audio stream, for a file whose headers do not say it (a WebM
 * written to a pipe has no duration and no cues; Ogg FLAC has no length the tag parser reads):
 * its packets read through to the end, not decoded, and the time of the last one taken.
 * Undefined when ffmpeg finds no audio to read.
 */
export async function measureDuration(ffmpeg: Pick<Ffmpeg, 'run'>, file: string, timeoutMs = 60_000): Promise<number | undefined> {
  let seconds: number | undefined;
  await ffmpeg.run([...songInputArgs({ file }), '-map', '0:a:0', '-c', 'copy', '-f', 'null', '-'], {
    timeoutMs,
    onProgress: (progress) => {
      if (progress.outSeconds > 0) seconds = progress.outSeconds;
    },
  });
  return seconds;
}

/**
 * The first frame of the file's first video stream as a PNG: a cover kept as a one-picture
 * video stream (ffmpeg writes a WMA's attached cover so, MJPEG in ASF). Undefined when there is
 * no such stream or it yields no picture.
 */
export async function stillPicture(ffmpeg: Pick<Ffmpeg, 'start'>, file: string, timeoutMs = 30_000): Promise<Buffer | undefined> {
  const running = await ffmpeg.start([...songInputArgs({ file }), '-map', '0:v:0', '-frames:v', '1', '-c:v', 'png', '-f', 'image2pipe', 'pipe:1'], {
    timeoutMs,
    stdout: 'pipe',
  });
  const chunks: Buffer[] = [];
  const reading = (async () => {
    for await (const chunk of running.stdout ?? []) chunks.push(chunk as Buffer);
  })();
  await Promise.all([reading, running.done]);
  const picture = Buffer.concat(chunks);
  return picture.length > 0 ? picture : undefined;
}

/**
 * The tags with what ffmpeg adds where the tag parser found nothing: the length, and a cover
 * kept as a still picture's stream. Failing to add one costs only that fact, never the song.
 */
export async function completedByFfmpeg(ffmpeg: Pick<Ffmpeg, 'run' | 'start'>, file: string, tags: AudioTags): Promise<AudioTags> {
  let completed = tags;
  if (tags.durationSeconds === null && tags.hasAudio) {
    const seconds = await measureDuration(ffmpeg, file).catch(() => undefined);
    if (seconds !== undefined) completed = { ...completed, durationSeconds: seconds };
  }
  if (tags.picture === null && tags.pictureStream) {
    const data = await stillPicture(ffmpeg, file).catch(() => undefined);
    if (data) completed = { ...completed, picture: { data, format: 'image/png' } };
  }
  return completed;
}

/** Whether `completedByFfmpeg` has anything to add (so a file in storage is fetched only then). */
export function ffmpegWouldComplete(tags: AudioTags): boolean {
  return (tags.durationSeconds === null && tags.hasAudio) || (tags.picture === null && tags.pictureStream === true);
}
