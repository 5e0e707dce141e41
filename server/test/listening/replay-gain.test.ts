import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SongDetail } from '@encore/common/library.contract';
import { collectPcm } from '../../src/features/discovery/analysis/collect-pcm.js';
import { measureLoudness } from '../../src/features/discovery/analysis/loudness.js';
import { measurePlaybackOfFile } from '../../src/features/discovery/analysis/playback-loudness.js';
import { discoveryModule } from '../../src/features/discovery/discovery.module.js';
import { songLoudnessPort } from '../../src/features/discovery/discovery.port.js';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { decodeToPcm } from '../../src/platform/media/ffmpeg.decode.js';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { ebur128, makeAudio, toDb, type Ebur128Summary } from './loudness-reference.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
const pink = (seconds: number, seed: number) => ['-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.5:d=${seconds}:r=44100:seed=${seed}`];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-replaygain-'));
  await Promise.all([
    // Two different noises left and right: the mono mix of the analysis loses 3 dB of it.
    makeAudio([...pink(6, 1), ...pink(6, 2), '-filter_complex', '[0][1]amerge=inputs=2,volume=-2dB', file('wide.flac')]),
    makeAudio([...pink(6, 3), '-af', 'pan=stereo|c0=c0|c1=c0,volume=-4dB', file('centred.flac')]),
    makeAudio([...pink(6, 4), '-af', 'volume=-6dB', file('mono.flac')]),
    // 12 kHz at 48 kHz, 45° off the samples: every sample is at 0.707 of the wave's peak (0.5).
    makeAudio(['-f', 'lavfi', '-i', `aevalsrc='0.5*sin(2*PI*12000*t+PI/4)|0.5*sin(2*PI*12000*t+PI/4)':s=48000:d=4`, file('between.wav')]),
  ]);
}, 60_000);
afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const ffmpeg = { decodeToPcm: (source: string, options: Parameters<typeof decodeToPcm>[2]) => decodeToPcm('ffmpeg', source, options) };

describe('playback loudness, measured as ffmpeg’s ebur128 measures it', () => {
  it('agrees with ebur128 on integrated loudness, range and true peak for wide, centred and mono files', async () => {
    for (const [name, reference] of [
      ['wide.flac', await ebur128(file('wide.flac'))],
      ['centred.flac', await ebur128(file('centred.flac'))],
      // A mono file plays on both speakers: measured as dual mono.
      ['mono.flac', await ebur128(file('mono.flac'), { dualMono: true })],
    ] as [string, Ebur128Summary][]) {
      const measured = await measurePlaybackOfFile(ffmpeg, file(name), { timeoutMs: 60_000 });
      expect(Math.abs(measured.integratedLufs - reference.integratedLufs), `${name} ${measured.integratedLufs} vs ${reference.integratedLufs}`).toBeLessThan(
        0.2,
      );
      expect(Math.abs(measured.rangeLu - reference.rangeLu), name).toBeLessThan(0.5);
      expect(Math.abs(toDb(measured.truePeak) - reference.truePeakDb), `${name} true peak`).toBeLessThan(0.5);
      expect(measured.truePeak).toBeGreaterThanOrEqual(measured.samplePeak);
      expect(measured.seconds).toBeCloseTo(6, 1);
    }
  });

  it('is why it does not reuse the analysis’s 22.05 kHz mono mix: that reads a wide mix about 3 dB low', async () => {
    const reference = await ebur128(file('wide.flac'));
    const mono = (await collectPcm(ffmpeg.decodeToPcm(file('wide.flac'), { sampleRate: 22_050, sampleFormat: 'f32le' }), 22_050 * 60)).samples;
    expect(reference.integratedLufs - measureLoudness(mono, 22_050).integratedLufs).toBeGreaterThan(2.5);
  });

  it('finds the peak between the samples', async () => {
    const measured = await measurePlaybackOfFile(ffmpeg, file('between.wav'), { timeoutMs: 60_000 });
    expect(toDb(measured.samplePeak)).toBeCloseTo(toDb(0.5 * Math.SQRT1_2), 1);
    // The wave's own peak, 0.5 (-6.02 dBTP), within 0.1 dB.
    expect(Math.abs(toDb(measured.truePeak) - toDb(0.5))).toBeLessThan(0.1);
  });
});

describe.each(engines)('ReplayGain of songs and albums (%s)', (engine) => {
  let t: TestApp;
  let token: string;
  const ids: Record<string, number> = {};
  const reference: Record<string, Ebur128Summary> = {};

  /** Pink noise as a tagged MP3: loud or quiet, wide or centred, seconds long. */
  const song = async (name: string, spec: { gainDb: number; seconds: number; seed: number; tags: Record<string, string> }) => {
    const tags = Object.entries(spec.tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);
    await makeAudio([
      ...pink(spec.seconds, spec.seed),
      '-af',
      `pan=stereo|c0=c0|c1=c0,volume=${spec.gainDb}dB`,
      ...tags,
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      file(`${name}.mp3`),
    ]);
    reference[name] = await ebur128(file(`${name}.mp3`));
    ids[name] = (await upload(t, token, file(`${name}.mp3`), { fileName: `${name}.mp3` })).song.id;
  };
  const detail = async (id: number) => {
    const response = await t.app.inject({ url: `/api/files/${id}`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return response.json<SongDetail>();
  };
  const analysis = () => t.app.encore.modules.internals(discoveryModule).analysis;

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await account(t, 'listener');
    const album = { album: 'Levels', album_artist: 'Test Band', artist: 'Test Band' };
    await song('loud', { gainDb: 0, seconds: 4, seed: 5, tags: { ...album, title: 'Loud' } });
    await song('quiet', { gainDb: -12, seconds: 8, seed: 6, tags: { ...album, title: 'Quiet' } });
    // The same album name by another album artist is another album.
    await song('other', { gainDb: -6, seconds: 4, seed: 7, tags: { album: 'Levels', album_artist: 'Other Band', title: 'Other' } });
    await song('single', { gainDb: -3, seconds: 4, seed: 8, tags: { artist: 'Test Band', title: 'Single' } });
    await song('unanalysed', { gainDb: -3, seconds: 4, seed: 9, tags: { ...album, title: 'Later' } });
    for (const name of ['loud', 'quiet', 'other', 'single']) expect(await analysis().analyseSong(ids[name]!)).toBe('analysed');
  }, 240_000);
  afterAll(async () => t?.close());

  const gainOf = (lufs: number) => -18 - lufs;
  /** The energy average by duration of the album's two songs, as the server computes it. */
  const albumLoudness = () => 10 * Math.log10((4 * 10 ** (reference['loud']!.integratedLufs / 10) + 8 * 10 ** (reference['quiet']!.integratedLufs / 10)) / 12);

  it('answers track gain to -18 LUFS and the true peak on GET /api/files/{id}, album gain from the album’s songs', async () => {
    const loud = await detail(ids['loud']!);
    const quiet = await detail(ids['quiet']!);
    expect(loud.replayGain).not.toBeNull();
    expect(Math.abs(loud.replayGain!.trackGain - gainOf(reference['loud']!.integratedLufs))).toBeLessThan(0.3);
    expect(Math.abs(quiet.replayGain!.trackGain - gainOf(reference['quiet']!.integratedLufs))).toBeLessThan(0.3);
    // 12 dB apart as mastered, 12 dB apart in gain: normalised, they play at the same loudness.
    expect(quiet.replayGain!.trackGain - loud.replayGain!.trackGain).toBeCloseTo(12, 0);
    expect(Math.abs(toDb(loud.replayGain!.trackPeak) - reference['loud']!.truePeakDb)).toBeLessThan(0.5);

    // One album gain for both, nearer the loud song's (the quiet one is quieter by energy) and one album peak, the louder song's.
    expect(loud.replayGain!.albumGain).toBe(quiet.replayGain!.albumGain);
    expect(Math.abs(loud.replayGain!.albumGain - gainOf(albumLoudness()))).toBeLessThan(0.3);
    expect(loud.replayGain!.albumPeak).toBe(Math.max(loud.replayGain!.trackPeak, quiet.replayGain!.trackPeak));
    expect(quiet.replayGain!.albumPeak).toBe(loud.replayGain!.albumPeak);
  });

  it('makes a song without an album tag, and an album of one song, their own album; an unanalysed song has none', async () => {
    for (const name of ['single', 'other']) {
      const gain = (await detail(ids[name]!)).replayGain!;
      expect(gain.albumGain, name).toBe(gain.trackGain);
      expect(gain.albumPeak, name).toBe(gain.trackPeak);
    }
    expect((await detail(ids['unanalysed']!)).replayGain).toBeNull();
    // Its album's gain leaves it out until it is measured.
    expect((await detail(ids['loud']!)).replayGain!.albumGain).toBeCloseTo(gainOf(albumLoudness()), 0);
  });

  it('gives the same values through the port other modules use (the Subsonic API), for many songs at once', async () => {
    const port = t.app.encore.modules.port(songLoudnessPort);
    const all = await port.replayGainOf([ids['loud']!, ids['quiet']!, ids['unanalysed']!, 999_999, ids['loud']!]);
    expect([...all.keys()].sort()).toEqual([ids['loud']!, ids['quiet']!].sort());
    expect(all.get(ids['loud']!)).toEqual((await detail(ids['loud']!)).replayGain);
    expect(await port.replayGainOf([])).toEqual(new Map());
  });

  it('measures only the loudness of songs analysed before it was measured, leaving their features as they were', async () => {
    const { db } = t.app.encore.platform.database;
    const before = (await detail(ids['single']!)).analysis;
    await db.update(songAnalyses).set({ loudness: null }).where(eq(songAnalyses.songId, ids['single']!));
    expect((await detail(ids['single']!)).replayGain).toBeNull();
    const done = await analysis().backfill();
    // The unanalysed song is analysed in full; the single only measured.
    expect(done).toMatchObject({ analysed: 1, failed: 0, loudness: 1 });
    expect((await detail(ids['single']!)).analysis).toEqual(before);
    expect(Math.abs((await detail(ids['single']!)).replayGain!.trackGain - gainOf(reference['single']!.integratedLufs))).toBeLessThan(0.3);
    // Nothing left to do.
    expect(await analysis().backfill()).toEqual({ analysed: 0, failed: 0, loudness: 0 });
  }, 120_000);

  it('answers 404 for an unknown song and 401 without a session', async () => {
    expect((await t.app.inject({ url: '/api/files/999999', headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/files/${ids['loud']!}` })).statusCode).toBe(401);
  });
});
