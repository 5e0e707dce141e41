import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, fixtureDir, uploadViaApi } from './media.js';
import {
  makeCutTone,
  makeToneFile,
  outputLevelDb,
  playing,
  playlistViaApi,
  startMonitor,
  stopMonitor,
  tapAudioOutput,
  waitForReplayGain,
} from './player-audio.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * The player's sound (issue 30): loudness normalisation measured at the page's own output,
 * a gapless join of two songs cut from one tone, and a song browsers cannot decode (ALAC)
 * played and sought through the server's transcode.
 */

function playerBar(page: Page) {
  return page.getByRole('region', { name: 'Player' });
}

async function setNormalisation(page: Page, mode: 'off' | 'track'): Promise<void> {
  await page.evaluate(
    (value) => localStorage.setItem('encore.player.settings', JSON.stringify({ mode: value, targetLufs: -14, preampDb: 0, crossfadeSeconds: 0 })),
    mode,
  );
}

/** The output level (dBFS) of the song `title` once it has played a second and a half: the median of five readings. */
async function levelOf(page: Page, title: string): Promise<number> {
  await expect.poll(async () => (await playing(page)).title, { timeout: 20_000 }).toBe(title);
  await expect.poll(async () => (await playing(page)).time, { timeout: 15_000 }).toBeGreaterThan(1.5);
  const readings: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    readings.push(await outputLevelDb(page));
    await page.waitForTimeout(150);
  }
  readings.sort((a, b) => a - b);
  return readings[2]!;
}

test.describe('player sound', () => {
  test('normalisation plays two songs mastered 10 dB apart within 1 LU, measured at the page output', async ({ page, request }) => {
    test.setTimeout(180_000);
    const user = uniqueUser('loud');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const loud = await makeToneFile(path.join(dir, 'loud.flac'), { title: 'Loud Master', artist: 'Meter', seconds: 6, frequency: 1000, gainDb: 6 });
    const quiet = await makeToneFile(path.join(dir, 'quiet.flac'), { title: 'Quiet Master', artist: 'Meter', seconds: 6, frequency: 1000, gainDb: -4 });
    const loudId = await uploadViaApi(request, token, loud);
    const quietId = await uploadViaApi(request, token, quiet);
    const loudGain = await waitForReplayGain(request, token, loudId);
    const quietGain = await waitForReplayGain(request, token, quietId);
    // The server measured them 10 dB apart.
    expect(quietGain.trackGain - loudGain.trackGain).toBeCloseTo(10, 0);
    const playlistId = await playlistViaApi(request, token, `Loudness ${Date.now()}`, [loudId, quietId]);

    await tapAudioOutput(page);
    await signInThroughUi(page, user);

    const measure = async (mode: 'off' | 'track') => {
      await setNormalisation(page, mode);
      await page.goto(`/playlists/${playlistId}`);
      await page.getByRole('button', { name: 'Play All' }).click();
      const loudDb = await levelOf(page, 'Meter - Loud Master');
      const quietDb = await levelOf(page, 'Meter - Quiet Master');
      await page.getByRole('button', { name: 'Stop' }).click();
      return { loudDb, quietDb };
    };

    const off = await measure('off');
    // Without normalisation the page plays them as mastered: 10 dB apart.
    expect(off.loudDb - off.quietDb).toBeGreaterThan(9);
    const on = await measure('track');
    expect(Math.abs(on.loudDb - on.quietDb)).toBeLessThan(1);
    // At the -14 LUFS target a mono 1 kHz tone sits near -17 dBFS RMS (BS.1770 counts it in
    // both channels, +3 dB; K-weighting adds about 0.7 dB at 1 kHz, less the 0.691 offset),
    // and the player's volume (0.8 at start, -1.9 dB) brings it to about -19 dBFS.
    expect(on.quietDb).toBeGreaterThan(-20.5);
    expect(on.quietDb).toBeLessThan(-17.5);
  });

  test('two songs cut from one tone join with no silence longer than 20 ms', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('gapless');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const [first, second] = await makeCutTone(dir, { artist: 'Seamless', album: 'One Take', titles: ['Take Part One', 'Take Part Two'], seconds: 8 });
    const firstId = await uploadViaApi(request, token, first);
    const secondId = await uploadViaApi(request, token, second);
    const playlistId = await playlistViaApi(request, token, `Gapless ${Date.now()}`, [firstId, secondId]);

    await tapAudioOutput(page);
    await signInThroughUi(page, user);
    await setNormalisation(page, 'off');
    await page.goto(`/playlists/${playlistId}`);
    await page.getByRole('button', { name: 'Play All' }).click();
    await expect.poll(async () => (await playing(page)).time, { timeout: 20_000 }).toBeGreaterThan(1);
    // From a second into the first song to two seconds into the second, every ~0.7 s reading
    // of the output has the tone in it: a gap of 20 ms anywhere would show in several.
    await startMonitor(page);
    await expect.poll(async () => (await playing(page)).title, { timeout: 20_000 }).toBe('Seamless - Take Part Two');
    await expect.poll(async () => (await playing(page)).time, { timeout: 10_000 }).toBeGreaterThan(2);
    const windows = await stopMonitor(page);
    expect(windows.length).toBeGreaterThan(40);
    const longest = Math.max(...windows.map((window) => window.longestSilenceMs));
    expect(longest, `the longest silence in the output around the join was ${longest.toFixed(1)} ms`).toBeLessThan(20);
    expect(Math.min(...windows.map((window) => window.rms))).toBeGreaterThan(0.01);
    await snap(page, 'player-gapless', { fullPage: false });
  });

  test('a crossfade starts the next song before the last one ends, with no silence between', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('fade');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const first = await makeToneFile(path.join(dir, 'fade-a.flac'), { title: 'Fade Out Song', artist: 'Fader', seconds: 8, frequency: 440 });
    const second = await makeToneFile(path.join(dir, 'fade-b.flac'), { title: 'Fade In Song', artist: 'Fader', seconds: 8, frequency: 660 });
    const ids = [await uploadViaApi(request, token, first), await uploadViaApi(request, token, second)];
    const playlistId = await playlistViaApi(request, token, `Fade ${Date.now()}`, ids);

    await tapAudioOutput(page);
    await signInThroughUi(page, user);
    await page.evaluate(() =>
      localStorage.setItem('encore.player.settings', JSON.stringify({ mode: 'off', targetLufs: -14, preampDb: 0, crossfadeSeconds: 3 })),
    );
    await page.goto(`/playlists/${playlistId}`);
    await page.getByRole('button', { name: 'Play All' }).click();
    await expect.poll(async () => (await playing(page)).time, { timeout: 20_000 }).toBeGreaterThan(1);
    await startMonitor(page);
    // Where the first song was when the bar moved on: the fade starts 3 s before its end.
    let lastOfFirst = 0;
    await expect
      .poll(
        async () => {
          const now = await playing(page);
          if (now.title === 'Fader - Fade Out Song') lastOfFirst = now.time;
          return now.title;
        },
        { timeout: 20_000, intervals: [100] },
      )
      .toBe('Fader - Fade In Song');
    expect(lastOfFirst).toBeGreaterThan(3.5);
    expect(lastOfFirst).toBeLessThan(6.5);
    await expect.poll(async () => (await playing(page)).time, { timeout: 10_000 }).toBeGreaterThan(4);
    const windows = await stopMonitor(page);
    expect(Math.max(...windows.map((window) => window.longestSilenceMs))).toBeLessThan(20);
  });

  test('an ALAC song plays and seeks through the browser copy, with no error', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('alac');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const alac = await makeToneFile(path.join(dir, 'lossless.m4a'), { title: 'Apple Lossless Song', artist: 'Codec', seconds: 30, codec: ['-c:a', 'alac'] });
    const id = await uploadViaApi(request, token, alac);

    await signInThroughUi(page, user);
    await page.goto(`/music/${id}`);
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    const bar = playerBar(page);
    await expect(bar).toBeVisible();
    await expect.poll(async () => (await playing(page)).time, { timeout: 30_000, message: 'the ALAC song plays' }).toBeGreaterThan(1);
    // The system's media controls still know the song (Media Session) with Web Audio in the path.
    expect(await page.evaluate(() => [navigator.mediaSession.metadata?.title, navigator.mediaSession.playbackState])).toEqual([
      'Apple Lossless Song',
      'playing',
    ]);
    // Seek to 20 s with the bar's slider (its keyboard: End, then back).
    const seek = bar.getByRole('slider', { name: 'Seek' });
    await seek.focus();
    await seek.fill('20');
    await expect.poll(async () => (await playing(page)).time, { timeout: 15_000 }).toBeGreaterThan(20);
    await expect.poll(async () => (await playing(page)).paused).toBe(false);
    await expect(page.getByText(/Failed|Error/)).toHaveCount(0);
  });
});
