import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SongFeatures } from '@encore/common/analysis.contract';
import { noMatchMessage, type GeneratedPlaylist } from '@encore/common/discovery.contract';
import { ANALYSER_VERSION, featureVector } from '../../src/features/discovery/analysis/analyse-signal.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

function features(overrides: Partial<SongFeatures>): SongFeatures {
  return {
    bpm: 120,
    bpmConfidence: 0.9,
    key: 'C',
    mode: 'major',
    keyStrength: 0.8,
    loudnessLufs: -14,
    loudnessRange: 4,
    energy: 0.5,
    energyLevel: 'medium',
    danceability: 0.5,
    spectralCentroidHz: 1500,
    brightness: 0.5,
    onsetRate: 4,
    dynamicComplexity: 3,
    acousticness: 0.5,
    vocalPresence: 0.5,
    ...overrides,
  };
}

const CALM: Partial<SongFeatures> = { energy: 0.08, loudnessLufs: -30, bpm: 68, onsetRate: 2, brightness: 0.2, energyLevel: 'low' };

/** Issue 31 through the API on a real database: whose songs, themes, years, what cannot be applied. */
describe.each(engines)('AI playlists from the collection on %s', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const name of ['ada', 'bob']) {
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: name, email: `${name}@example.com`, password: 'password 123' } });
      tokens[name] = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: name, password: 'password 123' } })).json<{
        token: string;
      }>().token;
    }
    const db = t.app.encore.platform.database.db;
    const owner = async (name: string) => (await db.select().from(users).where(eq(users.userName, name)))[0]!.id;
    const library: [string, string, number, string | null, Partial<SongFeatures>][] = [
      ['Ada Calm', 'ada', 1975, null, CALM],
      ['Ada Sea', 'ada', 2019, 'The ocean waves are calling, I sail across the sea', { energy: 0.6, loudnessLufs: -12 }],
      ['Bob Calm', 'bob', 1972, null, CALM],
      ['Bob Home', 'bob', 2021, 'I packed my bags and left the house where I grew up', { energy: 0.6, loudnessLufs: -12 }],
      ['Bob Loud', 'bob', 2015, 'city lights tonight', { energy: 0.95, loudnessLufs: -7, bpm: 150, onsetRate: 5.5, energyLevel: 'high' }],
      ['Bob Late', 'bob', 2022, 'dancing downtown', { energy: 0.7, loudnessLufs: -10 }],
    ];
    for (const [title, user, year, transcript, values] of library) {
      const ownerId = await owner(user);
      const [row] = await db
        .insert(songs)
        .values({
          ownerId,
          displayName: title,
          fileName: `${title}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${ownerId}/${title.replace(/ /gu, '-')}/song.mp3`,
          size: 1000,
          durationSeconds: 200,
          title,
          artist: title,
          year,
          transcript,
        })
        .returning();
      const f = features(values);
      await db.insert(songAnalyses).values({ songId: row!.id, status: 'analysed', features: f, vector: featureVector(f), analyserVersion: ANALYSER_VERSION });
      ids[title] = row!.id;
    }
    // Ada likes one of Bob's songs.
    await t.app.inject({ method: 'POST', url: `/api/files/${ids['Bob Home']}/like`, headers: { authorization: `Bearer ${tokens['ada']}` } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const generate = async (prompt: string, user = 'ada') => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/playlists/generate-playlist-by-prompt',
      headers: { authorization: `Bearer ${tokens[user]}` },
      payload: { prompt },
    });
    return { status: response.statusCode, body: response.json<GeneratedPlaylist & { message?: string }>() };
  };
  const titles = (body: GeneratedPlaylist) => body.songs.map((song) => song.title).sort();

  it('says "from the collection" when others uploaded songs of the answer, "from your library" only when all are the caller\'s', async () => {
    const calm = await generate('something calm');
    expect(calm.status).toBe(201);
    expect(titles(calm.body)).toEqual(['Ada Calm', 'Bob Calm']);
    expect(calm.body.description).toMatch(/^From the collection\./u);
    expect(calm.body.description).not.toContain('something calm');
    const mine = await generate('something calm from my own music');
    expect(titles(mine.body)).toEqual(['Ada Calm']);
    expect(mine.body.description).toMatch(/^From your library\./u);
  });

  it('chooses among the caller\'s own songs and favourites for "my", and favourites only for "my favourites"', async () => {
    const mine = await generate('my songs');
    expect(titles(mine.body)).toEqual(['Ada Calm', 'Ada Sea', 'Bob Home']);
    expect(mine.body.description).toMatch(/From your songs and favourites/u);
    const favourites = await generate('my favourites');
    expect(titles(favourites.body)).toEqual(['Bob Home']);
    // Bob has liked nothing: the collection answers, and the description says why.
    const none = await generate('my favourites', 'bob');
    expect(none.status).toBe(201);
    expect(none.body.description).toMatch(/None of your favourites is analysed yet, so these are from the collection/u);
  });

  it('filters a theme by the lyrics and never pads; reads "nostalgic" as the oldest part of the library', async () => {
    expect(titles((await generate('songs about the sea')).body)).toEqual(['Ada Sea']);
    expect(titles((await generate('songs about leaving home')).body)).toEqual(['Bob Home']);
    const nowhere = await generate('songs about volcanoes');
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.message).toBe(noMatchMessage("no song's lyrics are about “volcanoes”"));
    const old = await generate('nostalgic');
    expect(
      old.body.songs
        .slice(0, 2)
        .map((song) => song.title)
        .sort(),
    ).toEqual(['Ada Calm', 'Bob Calm']);
    expect(old.body.name).toBe('Nostalgic');
  });

  it('says in the description when a genre is not in the library', async () => {
    const reggae = await generate('reggae');
    expect(reggae.status).toBe(201);
    expect(reggae.body.description).toContain('No song is tagged reggae');
  });
});
