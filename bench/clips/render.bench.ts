/**
 * Song2Clip render speed: 60 s (BENCH_CLIP_SECONDS) of a song with 5 pictures, smooth
 * transitions and karaoke text, through the renderer's own phases (sharp normalisation, the
 * ASS document, the one ffmpeg command of phase 4) with the system ffmpeg: 720p30 mp4, 1080p30
 * mp4, 720p30 webm and 480p15 gif. Next to each mp4, a bare x264 encode of the same frame
 * count at the same preset (one still picture, no filters), interleaved with Encore's runs
 * (bare, Encore, bare, Encore… BENCH_CLIP_ROUNDS rounds) so a busy other core weighs on both.
 * Prints frames per second, the ratio to bare x264 (over all rounds), × real time, ffmpeg's peak
 * memory and the load average. Then a 4-minute (BENCH_CLIP_E2E_SECONDS) 1080p30 clip end to
 * end through a real app: the song uploaded, the pictures and settings posted to create-clip,
 * its status polled till done, the video fetched and probed. Asserts nothing.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import sharp from 'sharp';
import { buildClipSubtitles } from '../../common/src/clip-subtitles.js';
import { DEFAULT_CLIP_SETTINGS, clipFrameSize, type VideoFormat, type VideoQuality } from '../../common/src/clips.contract.js';
import { buildFfmpegCommand, type GraphInput } from '../../server/src/features/clips/phases/04-filter-graph.js';
import { CLIP_FONTS_DIR } from '../../server/src/features/clips/phases/03-build-subtitles.js';
import { pictureBoundaries } from '../../common/src/clip-timeline.js';
import { writeFile } from 'node:fs/promises';
import { startBenchApp, type BenchApp } from '../library/bench-app.js';
import type { ClipStatusResponse } from '../../common/src/clips.contract.js';
import { multipart } from '../../server/test/clips/clips-test-kit.js';

const SECONDS = Number(process.env['BENCH_CLIP_SECONDS'] ?? 60);
const ROUNDS = Number(process.env['BENCH_CLIP_ROUNDS'] ?? 2);
const E2E_SECONDS = Number(process.env['BENCH_CLIP_E2E_SECONDS'] ?? 240);
const PICTURES = 5;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
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
    const encore = () => runAll(runs);
    const bare = () =>
      ffmpeg([
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
    const frames = SECONDS * fps;
    const loadBefore = load();
    const render = { seconds: 0, peakMb: 0, each: [] as number[] };
    const plain = { seconds: 0, peakMb: 0, each: [] as number[] };
    for (let round = 0; round < (format === 'mp4' ? ROUNDS : 1); round++) {
      if (format === 'mp4') add(plain, await bare());
      add(render, await encore());
    }
    const line = [
      `${height}p${fps} ${format}:`,
      `Encore ${Math.round((frames * render.each.length) / render.seconds)} fps (${render.each.map((t) => Math.round(frames / t)).join(', ')})`,
      `${(SECONDS / (render.seconds / render.each.length + normaliseSeconds)).toFixed(2)}× real time (incl. ${normaliseSeconds.toFixed(1)} s normalising)`,
      `peak ${render.peakMb} MB`,
    ];
    if (format === 'mp4') {
      line.push(
        `| bare x264 ${Math.round((frames * plain.each.length) / plain.seconds)} fps (${plain.each.map((t) => Math.round(frames / t)).join(', ')}), peak ${plain.peakMb} MB`,
        `| ratio ${(plain.seconds / render.seconds).toFixed(2)}`,
      );
    }
    line.push(`| load ${loadBefore} → ${load()}`);
    console.log(line.join('  '));
  }
  await endToEnd(song, sources);
} finally {
  await rm(dir, { recursive: true, force: true });
}

/** The runs of one render (a GIF's two), one after the other: their wall seconds and peak. */
async function runAll(runs: { args: string[] }[]): Promise<{ seconds: number; peakMb: number }> {
  const total = { seconds: 0, peakMb: 0 };
  for (const command of runs) {
    const one = await ffmpeg(['-protocol_whitelist', 'file,pipe', ...command.args]);
    total.seconds += one.seconds;
    total.peakMb = Math.max(total.peakMb, one.peakMb);
  }
  return total;
}

function add(total: { seconds: number; peakMb: number; each: number[] }, run: { seconds: number; peakMb: number }): void {
  total.seconds += run.seconds;
  total.peakMb = Math.max(total.peakMb, run.peakMb);
  total.each.push(run.seconds);
}

/**
 * A 1080p30 mp4 of E2E_SECONDS through a real app (PGlite, local storage, the render worker in
 * the process): the song's upload (presigned URL, PUT, upload-complete), create-clip with the
 * pictures and karaoke words, clip-status polled till done, the video fetched and probed.
 */
async function endToEnd(shortSong: string, sources: string[]): Promise<void> {
  const song = path.join(dir, 'long-song.mp3');
  await ffmpeg([
    '-stream_loop',
    '-1',
    '-i',
    shortSong,
    '-t',
    String(E2E_SECONDS),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '192k',
    '-id3v2_version',
    '3',
    '-metadata',
    'title=Bench song',
    '-y',
    song,
  ]);
  const words = Array.from({ length: Math.floor(E2E_SECONDS * 2) }, (_, i) => ({ text: `word${i}`, start: i * 0.5, end: i * 0.5 + 0.4 }));
  let bench: BenchApp | undefined;
  try {
    bench = await startBenchApp('pglite', { WORKER: 'in-process' });
    const t = bench;
    const auth = { authorization: `Bearer ${t.token}` };
    const loadBefore = load();
    const started = performance.now();
    const presigned = await t.app.inject({ url: '/api/upload/presigned-url?fileName=long-song.mp3&contentType=audio%2Fmpeg', headers: auth });
    if (presigned.statusCode !== 200) throw new Error(`presign: ${presigned.statusCode} ${presigned.body}`);
    const { url, key } = presigned.json<{ url: string; key: string }>();
    const signed = new URL(url, 'http://encore.bench');
    const put = await t.app.inject({
      method: 'PUT',
      url: signed.pathname + signed.search,
      headers: { 'content-type': 'audio/mpeg' },
      payload: await readFile(song),
    });
    if (put.statusCode >= 300) throw new Error(`PUT: ${put.statusCode} ${put.body}`);
    const complete = await t.app.inject({
      method: 'POST',
      url: '/api/upload/upload-complete',
      headers: auth,
      payload: { fileName: 'long-song.mp3', s3key: key, fileType: 'audio/mpeg', size: 0, folderId: 0 },
    });
    if (complete.statusCode >= 300) throw new Error(`upload-complete: ${complete.statusCode} ${complete.body}`);
    const uploaded = (performance.now() - started) / 1000;
    const settings = { ...DEFAULT_CLIP_SETTINGS, videoQuality: 'high', videoFormat: 'mp4', aspectRatio: '16:9', framerate: 30, transitions: 'smooth', words };
    const form = await multipart(
      { settings: JSON.stringify(settings), songUrl: `/music/${complete.json<{ id: number }>().id}` },
      sources.map((file) => ({ name: 'mediaFiles', file, type: 'image/jpeg' })),
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/clips/create-clip',
      headers: { ...auth, 'content-type': form.contentType },
      payload: form.body,
    });
    if (created.statusCode !== 202) throw new Error(`create-clip: ${created.statusCode} ${created.body}`);
    const taskId = created.json<{ task_id: string }>().task_id;
    let status: ClipStatusResponse;
    for (;;) {
      status = (await t.app.inject({ url: `/api/clips/clip-status/${taskId}`, headers: auth })).json<ClipStatusResponse>();
      if (status.status === 'done' || status.status === 'error' || status.status === 'cancelled') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (status.status !== 'done' || !status.video_url) throw new Error(`render: ${JSON.stringify(status)}`);
    const video = new URL(status.video_url, 'http://encore.bench');
    const fetched = await t.app.inject({ url: video.pathname + video.search });
    if (fetched.statusCode !== 200) throw new Error(`video: ${fetched.statusCode}`);
    const file = path.join(dir, 'e2e.mp4');
    await writeFile(file, fetched.rawPayload);
    const seconds = (performance.now() - started) / 1000;
    const { stdout } = await promisify(execFile)('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width,height:format=duration',
      '-of',
      'csv=p=0',
      file,
    ]);
    console.log(
      `End to end, ${E2E_SECONDS / 60}-minute 1080p30 mp4 (5 pictures, smooth, karaoke): ${seconds.toFixed(1)} s from upload to playable file ` +
        `(upload ${uploaded.toFixed(1)} s), ${(E2E_SECONDS / seconds).toFixed(2)}× real time, ${(fetched.rawPayload.length / 1e6).toFixed(1)} MB, ` +
        `ffprobe: ${stdout.trim().split('\n').join(' / ')}  | load ${loadBefore} → ${load()}`,
    );
  } finally {
    await bench?.close();
  }
}
