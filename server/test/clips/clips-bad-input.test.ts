import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIP_SETTINGS } from '@encore/common/clips.contract';
import { clips } from '../../src/features/clips/clips.schema.js';
import { account, bearer, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import { buildClipFixtures, createClip, downloadClip, regionMean, settingsOf, taskIdOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';

/**
 * Issue 13's "bad input, tested": every refusal answers with the status and a message naming
 * what is wrong, and keeps nothing; text that looks like subtitle syntax is drawn as typed.
 */
let fixtures: ClipFixtures;
let work: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-bad-input-'));
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe.each(engines)('Song2Clip bad input on %s', (engine) => {
  let t: LibraryApp;
  let alice: string;
  let songUrl: string;

  beforeAll(async () => {
    t = await startLibraryApp({ engine, storage: 'local' }, { CLIP_MAX_IMAGES: '4', CLIP_MAX_IMAGE_MB: '0.05' });
    alice = await account(t, 'alice');
    songUrl = `/music/${(await upload(t, alice, fixtures.song)).song.id}`;
  }, 60_000);
  afterAll(async () => t.close());

  const send = (fields: Record<string, string>, files: string[]) => createClip(t, alice, fields, files);
  const expectRefused = async (response: Awaited<ReturnType<typeof send>>, status: number, message: RegExp) => {
    expect(response.statusCode, `${message}: ${response.body}`).toBe(status);
    expect(response.json<{ message: string }>().message).toMatch(message);
  };
  const stored = async () =>
    (await readdir(path.join(t.mediaDir, 'clip-media'), { recursive: true }).catch(() => [] as string[])).filter((name) => /\.\w+$/.test(name)).sort();
  const clipRows = async () => (await t.app.encore.platform.database.db.select().from(clips)).length;
  /** Runs the refusals, then checks that none of them kept a file or a clip. */
  const keepsNothing = async (refusals: () => Promise<void>) => {
    const [filesBefore, rowsBefore] = [await stored(), await clipRows()];
    await refusals();
    expect(await stored()).toEqual(filesBefore);
    expect(await clipRows()).toBe(rowsBefore);
  };

  it('refuses a missing song URL, one from elsewhere, and one that names no song', async () => {
    await keepsNothing(async () => {
      await expectRefused(await send({ settings: settingsOf({}) }, [fixtures.red]), 400, /songUrl/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl: 'https://elsewhere.example/song.mp3' }, [fixtures.red]), 400, /songUrl/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl: '/music/99999' }, [fixtures.red]), 400, /songUrl/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl: `${songUrl}x` }, [fixtures.red]), 400, /songUrl/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl: '/api/files/1/../../etc/passwd' }, [fixtures.red]), 400, /songUrl/);
    });
  });

  it('judges media by their bytes: none, too many, too large, a text file named .png, a video without pictures, strips, bombs', async () => {
    const big = path.join(work, `big-${engine}.png`);
    await sharp(randomBytes(600 * 600 * 3), { raw: { width: 600, height: 600, channels: 3 } })
      .png()
      .toFile(big);
    await keepsNothing(async () => {
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, []), 400, /mediaFiles/);
      await expectRefused(
        await send({ settings: settingsOf({}), songUrl }, [fixtures.red, fixtures.red, fixtures.red, fixtures.red, fixtures.red]),
        400,
        /mediaFiles: at most 4/,
      );
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [big]), 413, /larger than/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [fixtures.textAsPng]), 415, /"text\.png" is neither a picture nor a video/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [fixtures.audioOnlyMp4]), 422, /"audio-only\.mp4" has no video stream/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [fixtures.strip]), 422, /too narrow a strip \(1 × 200\)/);
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [fixtures.wideStrip]), 422, /too narrow a strip \(400 × 20\)/);
      // 80 megapixels in 10 kB: refused from its header, never decoded.
      await expectRefused(
        await send({ settings: settingsOf({}), songUrl }, [fixtures.hugePixels]),
        413,
        /"huge-pixels\.png" has too many pixels \(10000 × 8000\)/,
      );
      await expectRefused(await send({ settings: settingsOf({}), songUrl }, [fixtures.video, fixtures.red]), 400, /one video/);
      const notMultipart = await t.app.inject({ method: 'POST', url: '/api/clips/create-clip', headers: bearer(alice), payload: { settings: '{}' } });
      expect(notMultipart.statusCode).toBe(400);
    });
  });

  it('refuses a multipart body without a boundary or without its closing boundary: 400 with a message, never 500', async () => {
    const post = (contentType: string, payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/clips/create-clip', headers: { ...bearer(alice), 'content-type': contentType }, payload });
    const part = (name: string, value: string, file?: string) =>
      `--xyz\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: image/png` : ''}\r\n\r\n${value}\r\n`;
    await keepsNothing(async () => {
      await expectRefused(await post('multipart/form-data', part('settings', settingsOf({}))), 400, /names no boundary/);
      await expectRefused(
        await post(
          'multipart/form-data; boundary=xyz',
          `${part('settings', settingsOf({}))}${part('songUrl', songUrl)}--xyz\r\nContent-Disposition: form-data; name="mediaFiles"; filename="red.png"\r\n\r\nPNG...`,
        ),
        400,
        /ended before its closing boundary/,
      );
      await expectRefused(
        await post('multipart/form-data; boundary=xyz', `${part('settings', settingsOf({}))}${part('songUrl', songUrl)}`),
        400,
        /ended before its closing boundary/,
      );
      await expectRefused(await post('multipart/form-data; boundary=xyz', 'no parts at all'), 400, /./);
    });
  });

  it('refuses settings out of range or of the wrong type, naming the field', async () => {
    const refused: [unknown, RegExp][] = [
      [{ framerate: 90 }, /^settings\.framerate: Framerate must be from 15 to 60$/],
      [{ framerate: '30' }, /^settings\.framerate: /],
      [{ fontSize: 'big' }, /^settings\.fontSize: /],
      [{ videoFormat: 'avi' }, /^settings\.videoFormat: /],
      [{ videoQuality: 4 }, /^settings\.videoQuality: /],
      [{ colorMatch: 'true' }, /^settings\.colorMatch: /],
      [{ audioFadeIn: -1 }, /^settings\.audioFadeIn: /],
      [{ textStyles: { bold: 'yes' } }, /^settings\.textStyles\.bold: /],
      [{ textStyles: 'bold' }, /^settings\.textStyles: /],
      [{ words: 'Hello world' }, /^settings\.words: /],
      [{ words: [{ text: 'Hello', start: '0.5', end: 1 }] }, /^settings\.words\.0\.start: /],
      [{ words: [{ text: 'Hello', start: 2, end: 1 }] }, /^settings\.words\.0: /],
      [{ startTime: 2, endTime: 1 }, /^settings\.endTime: The clip must end after it starts$/],
      [[], /^settings: /],
      [null, /^settings: /],
      [42, /^settings: /],
    ];
    await keepsNothing(async () => {
      for (const [settings, message] of refused) await expectRefused(await send({ settings: JSON.stringify(settings), songUrl }, [fixtures.red]), 400, message);
      await expectRefused(await send({ settings: '{not json', songUrl }, [fixtures.red]), 400, /^settings: not valid JSON$/);
      await expectRefused(await send({ settings: '', songUrl }, [fixtures.red]), 400, /^settings: /);
    });
  });

  it('refuses words outside the song and words that hold line breaks or other control characters', async () => {
    await keepsNothing(async () => {
      await expectRefused(
        await send({ settings: settingsOf({ words: [{ text: 'late', start: 60, end: 61 }] }), songUrl }, [fixtures.red]),
        400,
        /^settings\.words: "late" starts at 60 s, after the song's end \(4\.0 s\)$/,
      );
      await expectRefused(
        await send({ settings: settingsOf({ startTime: 5 }), songUrl }, [fixtures.red]),
        400,
        /^settings\.startTime: the song is 4\.0 s long$/,
      );
      for (const text of ['two\nlines', 'carriage\rreturn', 'tab\there', 'bell\u0007']) {
        await expectRefused(
          await send({ settings: settingsOf({ words: [{ text, start: 0.5, end: 1 }] }), songUrl }, [fixtures.red]),
          400,
          /^settings\.words\.0\.text: A word must not contain control characters$/,
        );
      }
    });
  });

  it('draws words that look like subtitle syntax as typed: no override block, no line break', async () => {
    // On the blue picture, in the middle, no box or shadow: yellow (sung) glyphs show as red.
    const words = [
      { text: '{\\alpha&HFF&}Look', start: 0.3, end: 0.8 },
      { text: 'top\\Nbottom}{', start: 2.6, end: 3.5 },
    ];
    const created = await send(
      {
        settings: settingsOf({
          words,
          showBackground: false,
          textShadow: false,
          animation: 'none',
          textPosition: 'center',
          textColor: DEFAULT_CLIP_SETTINGS.textColor,
        }),
        songUrl,
      },
      [fixtures.blue],
    );
    expect(created.statusCode).toBe(202);
    const status = await waitForClip(t, alice, taskIdOf(created));
    expect(status.status, status.message ?? '').toBe('done');
    const file = await downloadClip(t, status.video_url as string, work, `syntax-${engine}.mp4`);
    // `{\alpha&HFF&}` did not hide the text: the line is drawn, braces and all.
    expect((await regionMean(file, 1, 250, 226, 354, 28))[0]).toBeGreaterThan(40);
    // `\N` did not break the line: text on the middle row only, nothing below it.
    expect((await regionMean(file, 3.8, 250, 226, 354, 28))[0]).toBeGreaterThan(40);
    expect((await regionMean(file, 3.8, 300, 262, 254, 14))[0]).toBeLessThan(20);
  }, 120_000);
});
