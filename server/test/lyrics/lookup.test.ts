import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LyricsCandidates, LyricsTranscriptResponse } from '@encore/common/lyrics.contract';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { LrclibClient } from '../../src/features/lyrics/lookup/lrclib.client.js';
import { json, loopbackServer, putLyrics, tempDir } from './lyrics-test-kit.js';

const run = promisify(execFile);

const SYNCED = {
  id: 11,
  trackName: 'Lookup Song',
  artistName: 'Lookup Artist',
  albumName: 'Lookup Album',
  duration: 6,
  instrumental: false,
  plainLyrics: 'First line\nSecond line',
  syncedLyrics: '[00:01.00] First line\n[00:03.50] Second line\n',
};
const PLAIN = {
  id: 12,
  trackName: 'Lookup Song',
  artistName: 'Lookup Artist',
  albumName: null,
  duration: 200,
  instrumental: false,
  plainLyrics: 'Only plain\nlyrics here',
  syncedLyrics: null,
};
const INSTRUMENTAL = {
  id: 13,
  trackName: 'Lookup Song',
  artistName: 'Lookup Artist',
  albumName: null,
  duration: 6,
  instrumental: true,
  plainLyrics: null,
  syncedLyrics: null,
};

/** LRCLIB's API on loopback: /api/get (exact match), /api/get/{id}, /api/search. */
async function lrclibStandIn() {
  const seen: string[] = [];
  const server = await loopbackServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    seen.push(`${url.pathname}?${url.searchParams.toString()}`);
    if (!String(request.headers['user-agent']).includes('Encore')) return json(response, 400, { message: 'a User-Agent is required' });
    const byId = /^\/api\/get\/(\d+)$/.exec(url.pathname);
    if (byId) {
      const found = [SYNCED, PLAIN, INSTRUMENTAL].find((record) => record.id === Number(byId[1]));
      return found ? json(response, 200, found) : json(response, 404, { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' });
    }
    if (url.pathname === '/api/get') {
      const exact =
        url.searchParams.get('track_name') === 'Lookup Song' &&
        url.searchParams.get('artist_name') === 'Lookup Artist' &&
        Math.abs(Number(url.searchParams.get('duration')) - 6) <= 2;
      return exact ? json(response, 200, SYNCED) : json(response, 404, { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' });
    }
    if (url.pathname === '/api/search')
      return json(response, 200, url.searchParams.get('track_name') === 'Lookup Song' ? [PLAIN, INSTRUMENTAL, SYNCED, { broken: true }] : []);
    return json(response, 404, { message: 'no route' });
  });
  return { ...server, seen };
}

describe.each(localSetups)('lyrics lookup on LRCLIB ($engine)', (setup) => {
  let t: LibraryApp;
  let lrclib: Awaited<ReturnType<typeof lrclibStandIn>>;
  let owner: string;
  let other: string;
  let song: Song;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    temp = await tempDir();
    lrclib = await lrclibStandIn();
    const file = path.join(temp.dir, 'lookup.mp3');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=6',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '64k',
      '-metadata',
      'title=Lookup Song',
      '-metadata',
      'artist=Lookup Artist',
      '-metadata',
      'album=Lookup Album',
      file,
    ]);
    t = await startLibraryApp(setup, { LYRICS_LOOKUP_URL: lrclib.url, TRANSCRIBE_ENGINE: 'off' });
    owner = await account(t, 'lookupowner');
    other = await account(t, 'lookupother');
    song = (await upload(t, owner, file)).song;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await lrclib?.close();
    await temp?.cleanup();
  });

  it('lists candidates, the exact match first, with their synced or plain kind', async () => {
    const response = await t.app.inject({ url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other) });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<LyricsCandidates>();
    expect(body.query).toMatchObject({ title: 'Lookup Song', artist: 'Lookup Artist', album: 'Lookup Album' });
    expect(body.candidates.map((candidate) => [candidate.id, candidate.kind])).toEqual([
      [11, 'synced'],
      [12, 'plain'],
      [13, 'instrumental'],
    ]);
    expect(body.candidates[0]!.preview).toBe('First line\nSecond line');
    expect(lrclib.seen.some((entry) => entry.startsWith('/api/get?') && entry.includes('duration=6'))).toBe(true);
  });

  it('refuses an instrumental and an unknown candidate, then applies the synced one with its line times', async () => {
    const instrumental = await t.app.inject({
      method: 'POST',
      url: `/api/files/${song.id}/lyrics/online`,
      headers: bearer(other),
      payload: { candidateId: 13 },
    });
    expect(instrumental.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other), payload: { candidateId: 999 } })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other), payload: { candidateId: 'x' } })).statusCode,
    ).toBe(400);
    const applied = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other), payload: { candidateId: 11 } });
    expect(applied.statusCode, applied.body).toBe(200);
    const body = applied.json<LyricsTranscriptResponse>();
    expect(body).toMatchObject({ transcript: 'First line\nSecond line', source: 'lookup', timing: 'line' });
    expect(body.lines.map((line) => line.startTime)).toEqual([1, 3.5]);
  });

  it('lets only the uploader replace lyrics from the lookup once a song has them', async () => {
    expect((await t.app.inject({ url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other) })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other), payload: { candidateId: 12 } })).statusCode,
    ).toBe(404);
    const replaced = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(owner), payload: { candidateId: 12 } });
    expect(replaced.json<LyricsTranscriptResponse>()).toMatchObject({ transcript: 'Only plain\nlyrics here', timing: 'none' });
  });

  it('answers 404 for an unknown song, and asks LRCLIB nothing', async () => {
    const asked = lrclib.seen.length;
    expect((await t.app.inject({ url: '/api/files/999999/lyrics/online', headers: bearer(other) })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/files/999999/lyrics/online', headers: bearer(other), payload: { candidateId: 11 } })).statusCode,
    ).toBe(404);
    expect(lrclib.seen.length).toBe(asked);
  });

  it('lets a listener apply a candidate again once the uploader emptied the lyrics', async () => {
    expect((await putLyrics(t, owner, song.id, { transcript: '' })).statusCode).toBe(200);
    const applied = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/online`, headers: bearer(other), payload: { candidateId: 11 } });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<LyricsTranscriptResponse>()).toMatchObject({ transcript: 'First line\nSecond line', source: 'lookup', canEdit: false });
  });
});

describe('lyrics lookup when it cannot run', () => {
  it('says so when turned off', async () => {
    const temp = await tempDir();
    const file = path.join(temp.dir, 'x.mp3');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'libmp3lame', file]);
    const t = await startLibraryApp(localSetups[0]!, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    try {
      const owner = await account(t, 'offlineowner');
      const song = (await upload(t, owner, file)).song;
      const response = await t.app.inject({ url: `/api/files/${song.id}/lyrics/online`, headers: bearer(owner) });
      expect(response.statusCode).toBe(503);
      expect(response.json<{ message: string }>().message).toBe('Online lyrics lookup is turned off (set LYRICS_LOOKUP_URL to enable it)');
    } finally {
      await t.close();
      await temp.cleanup();
    }
  }, 180_000);

  it('follows redirects within its own host and port only: another port or host is never asked, and a loop ends', async () => {
    const hits: string[] = [];
    const elsewhere = await loopbackServer((request, response) => {
      hits.push(request.url ?? '');
      json(response, 200, PLAIN);
    });
    const elsewherePort = new URL(elsewhere.url).port;
    const lrclib = await loopbackServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const redirect = (status: number, location: string) => void response.writeHead(status, { location }).end();
      if (url.pathname === '/api/search') return redirect(302, `/api/moved${url.search}`);
      if (url.pathname === '/api/moved') return json(response, 200, [PLAIN]);
      if (url.pathname === '/api/get/12') return redirect(307, `${elsewhere.url}/api/get/12`);
      if (url.pathname === '/api/get') return redirect(301, `http://localhost:${elsewherePort}/api/get${url.search}`);
      if (url.pathname === '/api/get/13') return redirect(302, '/api/get/13');
      return json(response, 404, { message: 'no route' });
    });
    const query = { title: 'x', artist: 'y', album: null, durationSeconds: 100 };
    const unreachable = 'The lyrics service could not be reached; check the connection and try again';
    try {
      const client = new LrclibClient({ baseUrl: lrclib.url, timeoutMs: 5_000 });
      expect((await client.search(query)).map((record) => record.id)).toEqual([PLAIN.id]);
      await expect(client.byId(12)).rejects.toThrow(unreachable);
      await expect(client.get(query)).rejects.toThrow(unreachable);
      await expect(client.byId(13)).rejects.toThrow(unreachable);
      expect(hits).toEqual([]);
    } finally {
      await lrclib.close();
      await elsewhere.close();
    }
  });

  it('says the service cannot be reached when nothing answers, or it answers too slowly or with an error', async () => {
    const gone = await loopbackServer(() => undefined);
    await gone.close(); // a port nothing listens on any more
    const slow = await loopbackServer(() => undefined); // accepts, never answers
    const failing = await loopbackServer((_, response) => json(response, 500, { message: 'boom' }));
    const query = { title: 'x', artist: 'y', album: null, durationSeconds: 100 };
    try {
      for (const baseUrl of [gone.url, slow.url, failing.url]) {
        const client = new LrclibClient({ baseUrl, timeoutMs: 500 });
        await expect(client.search(query)).rejects.toThrow('The lyrics service could not be reached; check the connection and try again');
      }
    } finally {
      await slow.close();
      await failing.close();
    }
  });
});
