/**
 * Song2Clip render speed: 60 s (BENCH_CLIP_SECONDS) of a song with 5 pictures, smooth
 * transitions and karaoke text, through the renderer's own phases (sharp normalisation, the
 * ASS document, the one ffmpeg command of phase 4) with the system ffmpeg: 720p30 mp4, 1080p30
 * mp4, 720p30 webm and 480p15 gif. Next to each mp4, a bare x264 encode of the same frame
 * count at the same preset (one still picture, no filters) in the same run. Prints frames per
 * second, the ratio to bare x264, × real time and ffmpeg's peak memory. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildClipSubtitles } from '../../common/src/clip-subtitles.js';
import { DEFAULT_CLIP_SETTINGS, clipFrameSize, type VideoFormat, type VideoQuality } from '../../common/src/clips.contract.js';
import { buildFfmpegCommand, type GraphInput } from '../../server/src/features/clips/phases/04-filter-graph.js';
import { CLIP_FONTS_DIR } from '../../server/src/features/clips/phases/03-build-subtitles.js';
import { pictureBoundaries } from '../../common/src/clip-timeline.js';
import { writeFile } from 'node:fs/promises';

const SECONDS = Number(process.env['BENCH_CLIP_SECONDS'] ?? 60);
const PICTURES = 5;
const dir = await mkdtemp(path.join(tmpdir(), 'encore-clip-bench-'));

/** Runs ffmpeg, sampling its resident memory every 50 ms; wall seconds and peak MB. */
function ffmpeg(args: string[]): Promise<{ seconds: number; peakMb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let peakKb = 0;
    const sampler = setInterval(() => {
      readFile(`/proc/${child.pid}/status`, 'utf8').then(
        (status) => {
          const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
          if (kb > peakKb) peakKb = kb;
        },
        () => undefined,
      );
    }, 50);
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code === 0) resolve({ seconds: (performance.now() - started) / 1000, peakMb: Math.round(peakKb / 1024) });
      else reject(new Error(`ffmpeg exited ${code}: ${stderr.slice(-500)}`));
    });
  });
}

try {
  const song = path.join(dir, 'song.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=330:duration=${SECONDS}`, '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', song]);
  const sources: string[] = [];
  for (let i = 0; i < PICTURES; i++) {
    const file = path.join(dir, `source-${i}.jpg`);
    // A noisy gradient: something for the encoder to work on, like a photo.
    const noise = Buffer.alloc(1600 * 1200 * 3);
    for (let p = 0; p < noise.length; p += 3) {
      const x = (p / 3) % 1600;
      noise[p] = (x / 7 + i * 50 + Math.random() * 40) & 255;
      noise[p + 1] = (p / 3 / 1600 / 5 + Math.random() * 40) & 255;
      noise[p + 2] = (i * 40 + Math.random() * 40) & 255;
    }
    await sharp(noise, { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(file);
    sources.push(file);
  }
  const words = Array.from({ length: Math.floor(SECONDS * 2) }, (_, i) => ({ text: `word${i}`, start: i * 0.5, end: i * 0.5 + 0.4 }));

  const cases: { quality: VideoQuality; format: VideoFormat; fps: number }[] = [
    { quality: 'medium', format: 'mp4', fps: 30 },
    { quality: 'high', format: 'mp4', fps: 30 },
    { quality: 'medium', format: 'webm', fps: 30 },
    { quality: 'low', format: 'gif', fps: 15 },
  ];
  console.log(`Song2Clip render, ${SECONDS} s, ${PICTURES} pictures, smooth transitions, karaoke text, system ffmpeg`);
  for (const { quality, format, fps } of cases) {
    const { width, height } = clipFrameSize(quality, '16:9');
    const normaliseStart = performance.now();
    const pictures: string[] = [];
    for (const [i, source] of sources.entries()) {
      const out = path.join(dir, `picture-${quality}-${i}.png`);
      await sharp(source).resize(width, height, { fit: 'cover' }).png({ compressionLevel: 1 }).toFile(out);
      pictures.push(out);
    }
    const normaliseSeconds = (performance.now() - normaliseStart) / 1000;
    const ass = path.join(dir, `words-${quality}.ass`);
    await writeFile(ass, buildClipSubtitles({ words, style: DEFAULT_CLIP_SETTINGS, width, height, start: 0, end: SECONDS }));
    const output = path.join(dir, `clip-${quality}.${format}`);
    const graph: GraphInput = {
      width,
      height,
      framerate: fps,
      duration: SECONDS,
      song: { file: song, start: 0 },
      media: { kind: 'images', files: pictures, boundaries: pictureBoundaries(PICTURES, SECONDS) },
      transition: 'smooth',
      hasXfade: true,
      subtitles: { file: ass, fontsDir: CLIP_FONTS_DIR },
      format,
      audioFadeIn: 0.5,
      audioFadeOut: 0.5,
      output,
    };
    // A GIF is two runs, as the renderer makes it (05-encode.ts): its palette at 2 frames a second, then every frame.
    const palette = path.join(dir, `palette-${quality}.png`);
    const runs =
      format === 'gif'
        ? [
            buildFfmpegCommand({ ...graph, framerate: 2, output: palette, gif: { stage: 'palette' } }),
            buildFfmpegCommand({ ...graph, gif: { stage: 'frames', palette } }),
          ]
        : [buildFfmpegCommand(graph)];
    const render = { seconds: 0, peakMb: 0 };
    for (const command of runs) {
      const one = await ffmpeg(['-protocol_whitelist', 'file,pipe', ...command.args]);
      render.seconds += one.seconds;
      render.peakMb = Math.max(render.peakMb, one.peakMb);
    }
    const frames = SECONDS * fps;
    const line = [
      `${height}p${fps} ${format}:`,
      `${Math.round(frames / render.seconds)} fps`,
      `${(SECONDS / (render.seconds + normaliseSeconds)).toFixed(2)}× real time (incl. ${normaliseSeconds.toFixed(1)} s normalising)`,
      `peak ${render.peakMb} MB`,
    ];
    if (format === 'mp4') {
      const bare = await ffmpeg([
        '-loop',
        '1',
        '-framerate',
        String(fps),
        '-t',
        String(SECONDS),
        '-i',
        pictures[0] as string,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '20',
        '-pix_fmt',
        'yuv420p',
        '-y',
        path.join(dir, 'bare.mp4'),
      ]);
      line.push(`| bare x264 ${Math.round(frames / bare.seconds)} fps, ratio ${(bare.seconds / render.seconds).toFixed(2)}`);
    }
    console.log(line.join('  '));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
