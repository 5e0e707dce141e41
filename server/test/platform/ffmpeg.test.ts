import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegError } from '../../src/platform/media/ffmpeg.error.js';
import { decodeToPcm } from '../../src/platform/media/ffmpeg.decode.js';
import { ensureExecutable, locateFfmpeg, type FfmpegSource, type LocatedFfmpeg } from '../../src/platform/media/ffmpeg.locate.js';
import { readCapabilities } from '../../src/platform/media/ffmpeg.capabilities.js';
import type { FfmpegProgress } from '../../src/platform/media/ffmpeg.progress.js';
import { runFfmpeg, startFfmpeg } from '../../src/platform/media/ffmpeg.run.js';
import { createFfmpeg } from '../../src/platform/media/ffmpeg.js';
import { sniffAudio, SNIFF_BYTES } from '../../src/platform/media/audio-sniffer.js';

/**
 * The ffmpeg component against both binaries CI has: Debian's (/usr/bin/ffmpeg, 5.1) and the
 * one npm ships in @ffmpeg-installer/linux-x64 (a 2018 static build: 4.1, no xfade).
 */
let dir: string;
let outside: string;
const at = (name: string) => path.join(dir, name);
const binaries = {} as Record<FfmpegSource, LocatedFfmpeg>;

/** A loopback HTTP server that counts what reaches it: crafted inputs must never call it. */
let server: http.Server;
let requests = 0;
let baseUrl: string;

const sine = (seconds: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=44100`];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-ffmpeg-'));
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-outside-'));
  for (const source of ['system', 'bundled'] as const) binaries[source] = await locateFfmpeg({ dataDir: dir, choices: [source] });
  const make = (args: string[]) => runFfmpeg(binaries.system.path, ['-y', ...args]);
  await Promise.all([
    make([...sine(2), '-c:a', 'pcm_s16le', at('tone.wav')]),
    make([...sine(2), '-c:a', 'flac', at('tone.flac')]),
    make([...sine(1.2), '-c:a', 'pcm_s16le', at('short.wav')]),
    make([...sine(60), '-c:a', 'pcm_s16le', at('long.wav')]),
    make([...sine(1), '-c:a', 'libmp3lame', path.join(outside, 'secret.mp3')]),
  ]);
  server = http.createServer((_request, response) => {
    requests += 1;
    response.end('#EXTM3U\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await Promise.all([dir, outside].filter(Boolean).map((folder) => fs.rm(folder, { recursive: true, force: true })));
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<FfmpegError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FfmpegError);
  return error as FfmpegError;
}

/** The song decoded with a plain `-i` (protocols still whitelisted, formats not). */
async function decodePlain(binary: string, file: string): Promise<Buffer> {
  const running = startFfmpeg(binary, ['-i', file, '-ac', '1', '-f', 's16le', 'pipe:1'], { stdout: 'pipe' });
  if (!running.stdout) throw new Error('no stdout');
  const [pcm] = await Promise.all([readAll(running.stdout), running.done]);
  return pcm;
}

/** Processes whose command line mentions `text` (Linux /proc). */
async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(entry));
  }
  return found;
}

/** The process is asleep in write() on its stdout (Linux /proc: syscall 1 on x86-64, aarch64 64, with fd 1). */
async function blockedWritingStdout(pid: number): Promise<boolean> {
  const syscall = (await fs.readFile(`/proc/${pid}/syscall`, 'utf8').catch(() => '')).trim().split(' ');
  const write = process.arch === 'arm64' ? '64' : '1';
  return syscall[0] === write && syscall[1] === '0x1';
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each(['system', 'bundled'] as const)('ffmpeg, the %s binary', (source) => {
  const ffmpeg = () => binaries[source].path;

  it('is found and reports its version and what it lacks', async () => {
    const found = binaries[source];
    const capabilities = await readCapabilities(found.path);
    expect(found.source).toBe(source);
    for (const name of ['subtitles', 'ass', 'aresample', 'sine']) expect(capabilities.filters.has(name)).toBe(true);
    for (const name of ['libx264', 'libvpx-vp9', 'libopus', 'pcm_s16le']) expect(capabilities.encoders.has(name)).toBe(true);
    if (source === 'system') {
      expect(found.path).toBe('/usr/bin/ffmpeg');
      expect(found.version).toMatch(/^\d+\.\d+/);
      expect(capabilities.filters.has('xfade')).toBe(true);
      expect(capabilities.lacks).toEqual([]);
    } else {
      expect(found.path).toContain(path.join('node_modules', '@ffmpeg-installer', `${process.platform}-${process.arch}`));
      expect(found.version).toBe('N-47683-g0e8eb07980-static');
      expect(capabilities.filters.has('xfade')).toBe(false);
      expect(capabilities.lacks).toEqual(['xfade']);
    }
  });

  it('reports progress from the input duration, up to 100 at the end', async () => {
    const seen: FfmpegProgress[] = [];
    await runFfmpeg(ffmpeg(), ['-re', '-i', at('short.wav'), '-f', 'null', '-'], { onProgress: (progress) => seen.push(progress) });
    expect(seen.some((progress) => progress.percent !== undefined && progress.percent > 0 && progress.percent < 100)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ percent: 100, done: true });
    expect(seen.at(-1)?.outSeconds).toBeCloseTo(1.2, 1);
    const percents = seen.map((progress) => progress.percent ?? 0);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  it('stops ffmpeg promptly when cancelled', async () => {
    const controller = new AbortController();
    let firstReport: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstReport = resolve));
    // A grace period longer than the test may run: only SIGTERM can stop it in time.
    const running = startFfmpeg(ffmpeg(), ['-re', ...sine(60), '-f', 'null', '-'], {
      signal: controller.signal,
      onProgress: () => firstReport(),
      killGraceMs: 10 * 60_000,
    });
    await started;
    const pid = running.pid ?? -1;
    expect(processExists(pid)).toBe(true);
    controller.abort();
    const error = await failure(running.done);
    expect(error.kind).toBe('cancelled');
    // SIGTERM ended it (ffmpeg exits on its own, or by the signal): no wait for the SIGKILL after the grace period.
    expect(error.details.signal ?? null).not.toBe('SIGKILL');
    expect(processExists(pid)).toBe(false);
  });

  it('stops ffmpeg at its time limit', async () => {
    const error = await failure(runFfmpeg(ffmpeg(), ['-re', ...sine(60), '-f', 'null', '-'], { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('ffmpeg took longer than 300 ms and was stopped');
  });

  it('says in one line why a command failed, without the folders it was given', async () => {
    const missing = await failure(runFfmpeg(ffmpeg(), ['-i', at('no such song.wav'), '-f', 'null', '-']));
    expect(missing.kind).toBe('failed');
    expect(missing.message).toBe('ffmpeg failed: no such song.wav: No such file or directory');
    const filter = await failure(runFfmpeg(ffmpeg(), ['-i', at('tone.wav'), '-af', 'nosuchfilter', '-f', 'null', '-']));
    expect(filter.message).toMatch(/^ffmpeg failed: .*No such filter: 'nosuchfilter'/);
    expect(filter.message).not.toContain('\n');
    expect(filter.message).not.toContain(dir);
    expect(filter.stderrTail).toContain('nosuchfilter');
  });

  it('decodes a song file to mono PCM at 16 kHz and 22.05 kHz', async () => {
    const s16 = await readAll(decodeToPcm(ffmpeg(), at('tone.wav'), { sampleRate: 16_000 }));
    expect(s16.length).toBe(2 * 16_000 * 2);
    const peak = Math.max(...Array.from({ length: s16.length / 2 }, (_, i) => Math.abs(s16.readInt16LE(i * 2))));
    expect(peak).toBeGreaterThan(1000);
    const f32 = await readAll(decodeToPcm(ffmpeg(), at('tone.wav'), { sampleRate: 22_050, sampleFormat: 'f32le' }));
    expect(f32.length).toBe(2 * 22_050 * 4);
    const floats = Array.from({ length: f32.length / 4 }, (_, i) => f32.readFloatLE(i * 4));
    expect(Math.max(...floats.map(Math.abs))).toBeLessThanOrEqual(1);
    expect(Math.max(...floats)).toBeGreaterThan(0.05);
  });

  it('decodes a song streamed from storage', async () => {
    const pcm = await readAll(decodeToPcm(ffmpeg(), createReadStream(at('tone.flac')), { sampleRate: 16_000 }));
    expect(pcm.length).toBe(2 * 16_000 * 2);
  });

  it('decodes no faster than the reader reads, and stops ffmpeg when the reader gives up', async () => {
    const song = at(`long-${source}.wav`);
    await fs.copyFile(at('long.wav'), song);
    const pcm = decodeToPcm(ffmpeg(), song, { sampleRate: 16_000 }); // 1.92 MB of output
    const first = await new Promise<Buffer>((resolve) => pcm.once('data', resolve));
    pcm.pause();
    const [pid] = await processesMentioning(song);
    // ffmpeg stops in write() on its output once the buffers are full: from then on it decodes nothing more.
    await expect.poll(() => blockedWritingStdout(pid ?? -1), { timeout: 30_000, interval: 50 }).toBe(true);
    // What waits is what fits in the stream's buffer and the OS pipe, not the whole song.
    expect(first.length + pcm.readableLength).toBeLessThan(600 * 1024);
    expect(await processesMentioning(song)).toEqual([pid]);
    pcm.destroy();
    await expect.poll(() => processesMentioning(song), { timeout: 1500, interval: 50 }).toEqual([]);
    const whole = await readAll(decodeToPcm(ffmpeg(), song, { sampleRate: 16_000 }));
    expect(whole.length).toBe(60 * 16_000 * 2);
  });

  describe('refuses crafted inputs that name other files or URLs', () => {
    async function refused(name: string, body: string | Buffer): Promise<void> {
      await fs.writeFile(at(name), body);
      const before = requests;
      const asFile = await failure(readAll(decodeToPcm(ffmpeg(), at(name), { sampleRate: 16_000 })));
      const asStream = await failure(readAll(decodeToPcm(ffmpeg(), createReadStream(at(name)), { sampleRate: 16_000 })));
      for (const error of [asFile, asStream]) {
        expect(error.kind).toBe('failed');
        expect(error.message).toMatch(/not on whitelist/);
      }
      expect(requests).toBe(before);
    }

    it('a concat list naming a URL or a file elsewhere', async () => {
      await refused(`${source}-url.ffconcat`, `ffconcat version 1.0\nfile '${baseUrl}/x.wav'\n`);
      await refused(`${source}-file.txt`, `ffconcat version 1.0\nfile '${path.join(outside, 'secret.mp3')}'\nfile '/etc/passwd'\n`);
    });

    it('an HLS playlist naming a URL or a song elsewhere', async () => {
      const playlist = (entry: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${entry}\n#EXT-X-ENDLIST\n`;
      await refused(`${source}-url.m3u8`, playlist(`${baseUrl}/segment.ts`));
      await refused(`${source}-file.m3u8`, playlist(path.join(outside, 'secret.mp3')));
      // Why songs get a format whitelist: given a plain -i, ffmpeg follows the playlist to the other song.
      const leaked = await decodePlain(ffmpeg(), at(`${source}-file.m3u8`));
      expect(leaked.length).toBeGreaterThan(0);
    });

    it('a playlist behind an ID3 tag with two MPEG frames in a comment, which the upload sniffer takes for an MP3', async () => {
      const tag = Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 20]), Buffer.alloc(20)]);
      const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${path.join(outside, 'secret.mp3')}\n#EXT-X-ENDLIST\n#`;
      const crafted = Buffer.concat([tag, Buffer.from(playlist), frame, frame, Buffer.from('\n')]);
      expect(sniffAudio(crafted.subarray(0, SNIFF_BYTES))?.container).toBe('mp3');
      await refused(`${source}-id3.mp3`, crafted);
      // Given a plain -i, ffmpeg reads it as HLS and decodes the other song.
      const leaked = await decodePlain(ffmpeg(), at(`${source}-id3.mp3`));
      expect(leaked.length).toBeGreaterThan(0);
    });

    it('nested references reach no other protocol, whatever demuxer the command forces', async () => {
      await fs.writeFile(at(`${source}-forced.txt`), `ffconcat version 1.0\nfile '${baseUrl}/x.wav'\n`);
      await fs.writeFile(at(`${source}-forced.m3u8`), `#EXTM3U\n#EXTINF:10,\n${baseUrl}/segment.ts\n#EXT-X-ENDLIST\n`);
      const before = requests;
      const concat = await failure(runFfmpeg(ffmpeg(), ['-f', 'concat', '-safe', '0', '-i', at(`${source}-forced.txt`), '-f', 'null', '-']));
      const hls = await failure(runFfmpeg(ffmpeg(), ['-f', 'hls', '-i', at(`${source}-forced.m3u8`), '-f', 'null', '-']));
      for (const error of [concat, hls]) expect(error.message).toMatch(/Protocol 'http' not on whitelist 'file,pipe'|Impossible to open|Error when loading/);
      expect(concat.stderrTail + hls.stderrTail).toMatch(/Protocol 'http' not on whitelist 'file,pipe'/);
      expect(requests).toBe(before);
      expect(() => startFfmpeg(ffmpeg(), ['-protocol_whitelist', 'http', '-i', `${baseUrl}/x`, '-f', 'null', '-'])).toThrow(TypeError);
    });
  });
});

describe('locating ffmpeg', () => {
  it('uses the npm-shipped binary on a machine with no ffmpeg on its PATH', async () => {
    const empty = await fs.mkdtemp(path.join(dir, 'empty-path-'));
    const found = await locateFfmpeg({ dataDir: dir, searchPath: empty });
    expect(found).toEqual(binaries.bundled);
  });

  it('uses FFMPEG_PATH alone, and refuses one that is not a working ffmpeg', async () => {
    expect(await locateFfmpeg({ dataDir: dir, configuredPath: binaries.bundled.path })).toEqual({ ...binaries.bundled, source: 'configured' });
    const absent = await failure(locateFfmpeg({ dataDir: dir, configuredPath: at('nothing-here') }));
    expect(absent.kind).toBe('unavailable');
    expect(absent.message).toContain('FFMPEG_PATH does not name an executable file');
    const impostor = at('impostor');
    await fs.writeFile(impostor, '#!/bin/sh\necho hello\n', { mode: 0o755 });
    expect((await failure(locateFfmpeg({ dataDir: dir, configuredPath: impostor }))).message).toContain('does not answer -version like ffmpeg');
  });

  it('probes a binary once: later starts read the probe from DATA_DIR, until the binary changes', async () => {
    const dataDir = await fs.mkdtemp(path.join(dir, 'probe-cache-'));
    const runs = at('probe-runs.log');
    const tool = at('probing-ffmpeg');
    // An ffmpeg that answers the three probes and logs each run.
    const script = (version: string, filters: string) =>
      [
        '#!/bin/sh',
        `echo "$*" >> '${runs}'`,
        `case "$*" in *-version*) echo 'ffmpeg version ${version} Copyright';;`,
        `*-filters*) printf ' ... ass               V->V       Render ASS\n ... subtitles         V->V       Render text\n${filters}';;`,
        `*-encoders*) printf ' ------\n V....D libx264              H.264\n V....D libvpx-vp9           VP9\n A..... libopus              Opus\n';;`,
        'esac',
      ].join('\n');
    await fs.writeFile(tool, script('9.1', ''), { mode: 0o755 });
    const logged = async () => (await fs.readFile(runs, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean).length;
    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    const probe = () => createFfmpeg({ configuredPath: tool, dataDir, logger: quiet }).info();

    const first = await probe();
    expect(first).toMatchObject({ path: tool, source: 'configured', version: '9.1', lacks: ['xfade'] });
    expect(await logged()).toBe(3);
    const again = await probe();
    expect(again).toMatchObject({ path: tool, source: 'configured', version: '9.1', lacks: ['xfade'] });
    expect([...again.encoders].sort()).toEqual(['libopus', 'libvpx-vp9', 'libx264']);
    expect(await logged()).toBe(3);

    // An upgrade in place: probed again, and the new probe kept.
    await fs.writeFile(tool, script('9.2', ' .S. xfade             VV->V      Cross fade\\n'), { mode: 0o755 });
    expect(await probe()).toMatchObject({ version: '9.2', lacks: [] });
    expect(await logged()).toBe(6);
    expect(await probe()).toMatchObject({ version: '9.2', lacks: [] });
    expect(await logged()).toBe(6);

    // A damaged cache is only a reason to probe again.
    await fs.writeFile(path.join(dataDir, 'cache', 'ffmpeg-probe.json'), '{"path":');
    expect(await probe()).toMatchObject({ version: '9.2' });
    expect(await logged()).toBe(9);
  });

  it('makes a binary unpacked without its execute bit executable', async () => {
    const unpacked = at('unpacked-tool');
    await fs.writeFile(unpacked, '#!/bin/sh\necho ok\n', { mode: 0o644 });
    await fs.chmod(unpacked, 0o644);
    expect(await ensureExecutable(unpacked, at('bin/copy'))).toBe(unpacked);
    expect((await fs.stat(unpacked)).mode & 0o111).not.toBe(0);
  });

  it('escalates to SIGKILL when a process ignores SIGTERM', async () => {
    const stubborn = at('stubborn');
    // Says so once SIGTERM is ignored, so the signal below cannot land before the trap.
    await fs.writeFile(stubborn, "#!/bin/sh\ntrap '' TERM\necho ready\nexec sleep 30\n", { mode: 0o755 });
    const controller = new AbortController();
    const running = startFfmpeg(stubborn, ['-i', 'x', 'y'], { signal: controller.signal, killGraceMs: 200, stdout: 'pipe' });
    await new Promise((resolve) => running.stdout?.once('data', resolve));
    controller.abort();
    const error = await failure(running.done);
    expect(error.kind).toBe('cancelled');
    expect(error.details.signal).toBe('SIGKILL');
    expect(processExists(running.pid ?? -1)).toBe(false);
  });
});
