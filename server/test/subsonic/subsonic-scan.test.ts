import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_MUSIC_FOLDERS, ONLY_OWNER_SCANS } from '@encore/common/music-folders.contract';
import { account, bearer } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  status: 'ok' | 'failed';
  error?: { code: number; message: string };
  scanStatus?: { scanning: boolean; count: number };
  musicFolders?: { musicFolder: { id: number; name: string }[] };
}

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/** An app with an API key for the owner (the first account) and one for another user. */
async function keysOf(t: TestApp): Promise<{ owner: string; other: string }> {
  const key = async (userName: string) => {
    const token = await account(t, userName);
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Symfonium' } });
    expect(response.statusCode).toBe(201);
    return response.json<{ key: string }>().key;
  };
  return { owner: await key('ada'), other: await key('bob') };
}

async function call(t: TestApp, method: string, key: string): Promise<Envelope> {
  const response = await t.app.inject({ url: `/rest/${method}?apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json` });
  expect(response.statusCode).toBe(200);
  return response.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
}

describe.each(engines)('Subsonic music folders and scans (%s)', (engine) => {
  let t: TestApp;
  let musicDir: string;
  let keys: { owner: string; other: string };

  beforeAll(async () => {
    musicDir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-scan-'));
    await copyFile(fixtures.opus, path.join(musicDir, 'First.ogg'));
    // No watcher: only startScan (or the scan at start) sees a new file.
    t = await startTestApp(engine, { MUSIC_FOLDERS: musicDir, MUSIC_WATCH: 'off' });
    keys = await keysOf(t);
  });
  afterAll(async () => {
    await t?.close();
    await rm(musicDir, { recursive: true, force: true });
  });

  it('lists the uploads as folder 0 and the music folder with its id', async () => {
    expect((await call(t, 'getMusicFolders', keys.other)).musicFolders?.musicFolder).toEqual([
      { id: 0, name: 'Uploads' },
      { id: 1, name: path.basename(musicDir) },
    ]);
  });

  it('reports the scan at start, then the songs the folders hold', async () => {
    await expect
      .poll(async () => (await call(t, 'getScanStatus', keys.other)).scanStatus, { timeout: 15_000, interval: 50 })
      .toEqual({
        scanning: false,
        count: 1,
      });
  });

  it("refuses startScan to anyone but the instance's owner (50), and scans for the owner", async () => {
    await copyFile(fixtures.opus, path.join(musicDir, 'Second.ogg'));
    const refused = await call(t, 'startScan', keys.other);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 50, message: ONLY_OWNER_SCANS } });
    // Nothing scanned for the refused call: the new file is not counted.
    expect((await call(t, 'getScanStatus', keys.other)).scanStatus).toEqual({ scanning: false, count: 1 });

    const started = await call(t, 'startScan', keys.owner);
    expect(started.status).toBe('ok');
    expect(started.scanStatus?.scanning).toBe(true);
    expect(started.scanStatus?.count).toBeGreaterThanOrEqual(0);
    await expect
      .poll(async () => (await call(t, 'getScanStatus', keys.owner)).scanStatus, { timeout: 15_000, interval: 50 })
      .toEqual({
        scanning: false,
        count: 2,
      });
  });

  it('needs credentials like every call', async () => {
    const response = await t.app.inject({ url: '/rest/getScanStatus?f=json' });
    expect(response.json<{ 'subsonic-response': Envelope }>()['subsonic-response'].error?.code).toBe(10);
    expect((await call(t, 'startScan', 'not-a-key')).error?.code).toBe(44);
  });
});

describe.each(engines)('Subsonic scans without music folders (%s)', (engine) => {
  let t: TestApp;
  let keys: { owner: string; other: string };

  beforeAll(async () => {
    t = await startTestApp(engine);
    keys = await keysOf(t);
  });
  afterAll(async () => t?.close());

  it('has only the uploads, nothing to scan, and says so to the owner', async () => {
    expect((await call(t, 'getMusicFolders', keys.owner)).musicFolders?.musicFolder).toEqual([{ id: 0, name: 'Uploads' }]);
    expect((await call(t, 'getScanStatus', keys.owner)).scanStatus).toEqual({ scanning: false, count: 0 });
    expect(await call(t, 'startScan', keys.owner)).toMatchObject({ status: 'failed', error: { code: 0, message: NO_MUSIC_FOLDERS } });
    expect((await call(t, 'startScan', keys.other)).error).toEqual({ code: 50, message: ONLY_OWNER_SCANS });
  });
});
