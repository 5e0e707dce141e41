import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnalysisProgress } from '@encore/common/analysis.contract';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { synthSong, type SynthSpec } from '../discovery/synth-audio.js';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';

const run = promisify(execFile);

interface Child {
  id: string;
  title: string;
  albumId?: string;
  artistId?: string;
}
interface Envelope {
  status: 'ok' | 'failed';
  error?: { code: number; message: string };
  [key: string]: unknown;
}

/** Two slow minor songs and two fast bright major ones, each by its own artist; the last is left unanalysed. */
const SONGS: { title: string; artist: string; spec: SynthSpec }[] = [
  { title: 'Slow One', artist: 'Slowhand', spec: { bpm: 90, rootHz: 220, mode: 'minor', gainDb: 0, seconds: 10 } },
  { title: 'Slow Two', artist: 'Slow Twin', spec: { bpm: 92, rootHz: 220, mode: 'minor', gainDb: 0, seconds: 10 } },
  { title: 'Fast One', artist: 'Fasto', spec: { bpm: 140, rootHz: 261.63, mode: 'major', gainDb: 0, seconds: 10, hats: true } },
  { title: 'Fast Two', artist: 'Fast Twin', spec: { bpm: 142, rootHz: 261.63, mode: 'major', gainDb: 0, seconds: 10, hats: true } },
  { title: 'Unheard', artist: 'Nobody', spec: { bpm: 120, rootHz: 246.94, mode: 'major', gainDb: -6, seconds: 10 } },
];

describe.each(localSetups)('Subsonic similar songs and artists from the analysis ($engine)', (setup) => {
  let t: LibraryApp;
  let dir: string;
  let key: string;
  const songs = new Map<string, Child>();

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-subsonic-similar-'));
    await Promise.all(
      SONGS.map(async ({ title, artist, spec }) => {
        const bare = path.join(dir, `${title}.bare.mp3`);
        await synthSong(bare, spec);
        const tags = ['-metadata', `title=${title}`, '-metadata', `artist=${artist}`, '-metadata', `album=${title} EP`];
        await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', bare, '-c', 'copy', ...tags, path.join(dir, `${title}.mp3`)]);
      }),
    );
    t = await startLibraryApp(setup, { ANALYSIS_ON_INGEST: 'true' });
    const token = await account(t, 'ada');
    key = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Symfonium' } })).json<{ key: string }>()
      .key;
    for (const { title } of SONGS) await upload(t, token, path.join(dir, `${title}.mp3`), { fileName: `${title}.mp3` });
    await vi.waitFor(
      async () => {
        const { analysed } = (await t.app.inject({ url: '/api/ai/analysis-progress', headers: bearer(token) })).json<AnalysisProgress>();
        if (analysed < SONGS.length) throw new Error(`${analysed} of ${SONGS.length} songs analysed`);
      },
      { timeout: 240_000, interval: 250 },
    );
    const found = ((await call('search3', 'query=&songCount=500'))['searchResult3'] as { song: Child[] }).song;
    for (const song of found) songs.set(song.title, song);
    // One song without an analysis: it has no neighbours and is nobody's.
    await t.app.encore.platform.database.db.delete(songAnalyses).where(eq(songAnalyses.songId, Number(songs.get('Unheard')!.id)));
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function call(method: string, query = ''): Promise<Envelope> {
    const response = await t.app.inject({ url: `/rest/${method}?${query}&apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json` });
    expect(response.statusCode).toBe(200);
    return response.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  }
  const titles = (answer: Envelope, name: string) => ((answer[name] as { song?: Child[] }).song ?? []).map((song) => song.title);
  const id = (title: string) => songs.get(title)!.id;

  it('ranks the songs that sound alike first, the seed left out, analysed songs only', async () => {
    const slow = titles(await call('getSimilarSongs2', `id=${id('Slow One')}`), 'similarSongs2');
    expect(slow[0]).toBe('Slow Two');
    expect(slow).not.toContain('Slow One');
    expect(slow).not.toContain('Unheard');
    expect(new Set(slow)).toEqual(new Set(['Slow Two', 'Fast One', 'Fast Two']));
    expect(titles(await call('getSimilarSongs', `id=${id('Fast One')}`), 'similarSongs')[0]).toBe('Fast Two');
    expect(titles(await call('getSimilarSongs2', `id=${id('Fast Two')}&count=1`), 'similarSongs2')).toEqual(['Fast One']);
  });

  it('carries the ReplayGain 2.0 values of the loudness analysis on song elements, and the viewer’s listening', async () => {
    const similar = (await call('getSimilarSongs2', `id=${id('Slow One')}`))['similarSongs2'] as { song: (Child & Record<string, unknown>)[] };
    expect(similar.song.length).toBeGreaterThan(0);
    for (const song of similar.song) {
      expect(song['playCount']).toBe(0);
      const gain = song['replayGain'] as Record<string, number>;
      // Each song is its own album here (an EP of one): the album's values are the track's.
      expect(gain).toEqual({ trackGain: expect.any(Number), trackPeak: expect.any(Number), albumGain: gain['trackGain'], albumPeak: gain['trackPeak'] });
      expect(gain['trackPeak']).toBeGreaterThan(0);
      expect(Math.abs(gain['trackGain'] ?? 99)).toBeLessThan(40);
    }
    // The same values wherever the song is listed.
    const first = similar.song[0]!;
    const song = (await call('getSong', `id=${first.id}`))['song'] as Record<string, unknown>;
    expect(song['replayGain']).toEqual(first['replayGain']);
    // Not measured (its analysis is gone): the field is there, empty.
    expect(((await call('getSong', `id=${id('Unheard')}`))['song'] as Record<string, unknown>)['replayGain']).toEqual({});
  });

  it('takes an album or an artist as the seed', async () => {
    expect(titles(await call('getSimilarSongs2', `id=${songs.get('Slow Two')!.albumId}`), 'similarSongs2')[0]).toBe('Slow One');
    expect(titles(await call('getSimilarSongs2', `id=${songs.get('Fast One')!.artistId}&count=2`), 'similarSongs2')[0]).toBe('Fast Two');
  });

  it('answers an empty list for a song not analysed', async () => {
    const answer = await call('getSimilarSongs2', `id=${id('Unheard')}`);
    expect(answer.status).toBe('ok');
    expect(titles(answer, 'similarSongs2')).toEqual([]);
  });

  it("names the artists of the songs nearest an artist's, without a biography or outside calls", async () => {
    const info = (await call('getArtistInfo2', `id=${songs.get('Slow One')!.artistId}`))['artistInfo2'] as { similarArtist: { name: string; id: string }[] };
    expect(info.similarArtist[0]?.name).toBe('Slow Twin');
    expect(info.similarArtist.map((artist) => artist.name)).not.toContain('Slowhand');
    expect(info.similarArtist.map((artist) => artist.name)).not.toContain('Nobody');
    const one = (await call('getArtistInfo', `id=${songs.get('Fast One')!.artistId}&count=1`))['artistInfo'] as { similarArtist: { name: string }[] };
    expect(one.similarArtist.map((artist) => artist.name)).toEqual(['Fast Twin']);
    // Unanalysed: no neighbours to name.
    const none = (await call('getArtistInfo2', `id=${songs.get('Unheard')!.artistId}`))['artistInfo2'] as { similarArtist?: unknown[] };
    expect(none.similarArtist ?? []).toEqual([]);
  });

  it('refuses missing, unknown and malformed ids and counts', async () => {
    expect((await call('getSimilarSongs2')).error?.code).toBe(10);
    expect((await call('getSimilarSongs2', 'id=999999')).error?.code).toBe(70);
    expect((await call('getSimilarSongs2', 'id=al-nothing-here')).error?.code).toBe(70);
    expect((await call('getSimilarSongs', 'id=not-an-id')).error?.code).toBe(70);
    expect((await call('getSimilarSongs2', `id=${id('Slow One')}&count=lots`)).error?.code).toBe(0);
    expect(titles(await call('getSimilarSongs2', `id=${id('Slow One')}&count=-3`), 'similarSongs2')).toEqual([]);
    expect(titles(await call('getSimilarSongs2', `id=${id('Slow One')}&count=999999`), 'similarSongs2')).toHaveLength(3);
    expect((await call('getArtistInfo2')).error?.code).toBe(10);
    expect((await call('getArtistInfo2', 'id=ar-nobody-at-all')).error?.code).toBe(70);
    expect((await call('getArtistInfo2', `id=${id('Slow One')}`)).error?.code).toBe(70);
  });
});
