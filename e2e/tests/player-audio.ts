import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { makeTone } from './media.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/**
 * Listens to what the page sends to the speakers: before the app loads, every connection of a
 * Web Audio node to its context's destination is also made to an AnalyserNode of ours (one per
 * context), so a test reads the page's real output without any hook in the product.
 */
export async function tapAudioOutput(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const analysers: AnalyserNode[] = [];
    const tapped = new WeakMap<BaseAudioContext, AnalyserNode>();
    const connect = AudioNode.prototype.connect as (this: AudioNode, destination: AudioNode | AudioParam, ...rest: number[]) => AudioNode | void;
    function tappedConnect(this: AudioNode, destination: AudioNode | AudioParam, ...rest: number[]) {
      const result = connect.call(this, destination, ...rest);
      if (destination instanceof AudioDestinationNode) {
        let analyser = tapped.get(this.context);
        if (!analyser) {
          analyser = this.context.createAnalyser();
          analyser.fftSize = 32768;
          tapped.set(this.context, analyser);
          analysers.push(analyser);
        }
        connect.call(this, analyser);
      }
      return result;
    }
    (AudioNode.prototype as unknown as { connect: typeof tappedConnect }).connect = tappedConnect;

    interface Window {
      samples: number;
      longestSilenceMs: number;
      rms: number;
    }
    const windows: Window[] = [];
    let timer: ReturnType<typeof setInterval> | null = null;
    const api = {
      /** Reads the output every 100 ms: each reading is the last ~0.7 s, so readings overlap. */
      start() {
        windows.length = 0;
        if (timer) clearInterval(timer);
        timer = setInterval(() => {
          const analyser = analysers[0];
          if (!analyser) return;
          const data = new Float32Array(analyser.fftSize);
          analyser.getFloatTimeDomainData(data);
          let sum = 0;
          let runLength = 0;
          let longest = 0;
          for (const x of data) {
            sum += x * x;
            if (Math.abs(x) < 1e-4) runLength += 1;
            else {
              longest = Math.max(longest, runLength);
              runLength = 0;
            }
          }
          longest = Math.max(longest, runLength);
          windows.push({ samples: data.length, longestSilenceMs: (longest / analyser.context.sampleRate) * 1000, rms: Math.sqrt(sum / data.length) });
        }, 100);
      },
      stop() {
        if (timer) clearInterval(timer);
        timer = null;
        return windows.slice();
      },
      /** Root mean square of the output over the last ~0.7 s, in dBFS. */
      levelDb() {
        const analyser = analysers[0];
        if (!analyser) return Number.NEGATIVE_INFINITY;
        const data = new Float32Array(analyser.fftSize);
        analyser.getFloatTimeDomainData(data);
        let sum = 0;
        for (const x of data) sum += x * x;
        return 10 * Math.log10(sum / data.length);
      },
      contexts: () => analysers.length,
    };
    (window as unknown as { encoreAudioTap: typeof api }).encoreAudioTap = api;
  });
}

export interface TapWindow {
  samples: number;
  longestSilenceMs: number;
  rms: number;
}

export function startMonitor(page: Page): Promise<void> {
  return page.evaluate(() => (window as unknown as { encoreAudioTap: { start(): void } }).encoreAudioTap.start());
}

export function stopMonitor(page: Page): Promise<TapWindow[]> {
  return page.evaluate(() => (window as unknown as { encoreAudioTap: { stop(): TapWindow[] } }).encoreAudioTap.stop());
}

export function outputLevelDb(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { encoreAudioTap: { levelDb(): number } }).encoreAudioTap.levelDb());
}

/** The playing element's position and whether it plays. */
export function playing(page: Page): Promise<{ time: number; paused: boolean; title: string }> {
  return page.evaluate(() => {
    const element = document.querySelector<HTMLAudioElement>('audio[data-encore-player]');
    const title = document.querySelector('[data-testid="player-title"]')?.getAttribute('aria-label') ?? '';
    return { time: element?.currentTime ?? -1, paused: element?.paused ?? true, title };
  });
}

/** A sine tone written by ffmpeg: codec chosen by the extension, or given; `gainDb` changes its level. */
export function makeToneFile(
  file: string,
  options: { title: string; artist: string; seconds: number; frequency?: number; gainDb?: number; codec?: string[]; album?: string },
): Promise<string> {
  const { title, artist, album, seconds, frequency = 440, gainDb, codec } = options;
  return makeTone(file, { title, artist, album }, seconds, frequency, { gainDb, codec });
}

/**
 * Two files cut from one continuous tone at a sample boundary: played one after the other
 * with no gap, they sound as the one tone.
 */
export async function makeCutTone(
  dir: string,
  options: { artist: string; album: string; titles: [string, string]; seconds: number },
): Promise<[string, string]> {
  const whole = path.join(dir, 'whole.wav');
  await run(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${options.seconds * 2}`,
    whole,
  ]);
  const samples = options.seconds * 44100;
  const parts: string[] = [];
  for (const [index, title] of options.titles.entries()) {
    const file = path.join(dir, `${title.replace(/[^\w-]+/g, '-')}.flac`);
    const trim = index === 0 ? `atrim=end_sample=${samples}` : `atrim=start_sample=${samples},asetpts=PTS-STARTPTS`;
    await run(FFMPEG, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      whole,
      '-af',
      trim,
      '-metadata',
      `title=${title}`,
      '-metadata',
      `artist=${options.artist}`,
      '-metadata',
      `album=${options.album}`,
      '-metadata',
      `track=${index + 1}`,
      file,
    ]);
    parts.push(file);
  }
  return [parts[0]!, parts[1]!];
}

/** Waits until the server has measured the song's loudness (the analysis job runs after upload). */
export async function waitForReplayGain(request: APIRequestContext, token: string, id: number): Promise<{ trackGain: number; trackPeak: number }> {
  let gain: { trackGain: number; trackPeak: number } | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
        gain = ((await response.json()) as { replayGain: { trackGain: number; trackPeak: number } | null }).replayGain;
        return gain !== null;
      },
      { timeout: 90_000, message: `song ${id} gets its loudness measured` },
    )
    .toBe(true);
  return gain!;
}

/** Creates a playlist of the songs through the API; returns its id. */
export async function playlistViaApi(request: APIRequestContext, token: string, name: string, songIds: readonly number[]): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/playlists', { headers, data: { name } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  for (const songId of songIds) {
    const added = await request.post(`/api/playlists/${id}/songs`, { headers, data: { SongId: songId } });
    expect(added.ok()).toBe(true);
  }
  return id;
}
