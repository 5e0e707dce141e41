import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SongFeatures } from '@encore/common/analysis.contract';
import { nearestNote, noMatchMessage, type GeneratedPlaylist } from '@encore/common/discovery.contract';
import { ANALYSER_VERSION, featureVector } from '../../src/features/discovery/analysis/analyse-signal.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { MIN_CLOSE_SONGS } from '../../src/features/discovery/ranking/rank.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 37 item 16: a small library of moody songs (29, all in minor keys, mid tempo, never
 * loud) answers "upbeat songs" or "songs for a morning walk" (both ask for a major key) with one
 * song at most. The nearest songs fill the answer, each marked with its honest reason; an
 * answer is empty only when no song fits at all, and then the message says why.
 */
const SONG_COUNT = 29;
const TEMPOS = [72, 84, 96, 104, 112, 126];

function features(index: number): SongFeatures {
  const energy = 0.2 + (index % 7) * 0.05;
  return {
    bpm: TEMPOS[index % TEMPOS.length]!,
    bpmConfidence: 0.9,
    key: 'A',
    mode: 'minor',
    keyStrength: 0.8,
    loudnessLufs: -20 + (index % 5) * 2,
    loudnessRange: 5,
    energy,
    energyLevel: energy >= 0.4 ? 'medium' : 'low',
    danceability: 0.4,
    spectralCentroidHz: 1200,
    brightness: 0.3 + (index % 4) * 0.05,
    onsetRate: 3,
    dynamicComplexity: 3,
    acousticness: 0.6,
    vocalPresence: 0.7,
  };
}

describe.each(engines)('AI playlists from nearest songs on %s', (engine) => {
  let t: TestApp;
  let token = '';

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'ada', email: 'ada@example.com', password: 'password 123' } });
    token = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'ada', password: 'password 123' } })).json<{ token: string }>()
      .token;
    const db = t.app.encore.platform.database.db;
    const ownerId = (await db.select().from(users).where(eq(users.userName, 'ada')))[0]!.id;
    for (let index = 0; index < SONG_COUNT; index++) {
      const title = `Moody ${index + 1}`;
      const [row] = await db
        .insert(songs)
        .values({
          ownerId,
          displayName: title,
          fileName: `${title}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${ownerId}/moody-${index + 1}/song.mp3`,
          size: 1000,
          durationSeconds: 200,
          title,
          artist: `Artist ${index + 1}`,
          genre: 'Indie',
          year: 2000 + index,
          transcript: index % 2 === 0 ? 'rain on the window, grey morning light' : 'the road goes on and on',
        })
        .returning();
      const f = features(index);
      await db.insert(songAnalyses).values({ songId: row!.id, status: 'analysed', features: f, vector: featureVector(f), analyserVersion: ANALYSER_VERSION });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const generate = async (prompt: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/playlists/generate-playlist-by-prompt',
      headers: { authorization: `Bearer ${token}` },
      payload: { prompt },
    });
    return { status: response.statusCode, body: response.json<GeneratedPlaylist & { message?: string }>() };
  };

  it.each(['songs for a morning walk', 'upbeat songs'])('answers "%s" with the nearest songs, each marked, with its reason', async (prompt) => {
    const { status, body } = await generate(prompt);
    expect(status, body.message).toBe(201);
    expect(body.songs).toHaveLength(MIN_CLOSE_SONGS);
    const firstNearest = body.songs.findIndex((song) => song.nearest);
    expect(firstNearest).toBeGreaterThanOrEqual(0);
    for (const song of body.songs.slice(firstNearest)) {
      expect(song.nearest).toBe(true);
      // Honest: the reason says what the song has on what was asked, its minor key included.
      expect(song.reason).toMatch(/^nearest: .*minor key/u);
    }
    expect(body.description).toContain(nearestNote(firstNearest, MIN_CLOSE_SONGS - firstNearest));
  });

  it('puts the strict answers first and marks only the nearest that follow them', async () => {
    const { status, body } = await generate('slow quiet songs');
    expect(status).toBe(201);
    const strict = body.songs.filter((song) => !song.nearest);
    expect(strict.length).toBeGreaterThan(0);
    // Every strict answer comes before every nearest song.
    const firstNearest = body.songs.findIndex((song) => song.nearest);
    if (firstNearest >= 0) expect(body.songs.slice(firstNearest).every((song) => song.nearest)).toBe(true);
    expect(strict.every((song) => !song.reason.startsWith('nearest'))).toBe(true);
  });

  it('never pads a filter: a lyrics theme no song has is empty, and the message says why', async () => {
    const rain = await generate('songs about rain');
    expect(rain.status).toBe(201);
    expect(rain.body.songs.every((song) => song.nearest === undefined)).toBe(true);
    const volcanoes = await generate('songs about volcanoes');
    expect(volcanoes.status).toBe(422);
    expect(volcanoes.body.message).toBe(noMatchMessage("no song's lyrics are about “volcanoes”"));
    const years = await generate('songs from the 1950s');
    expect(years.status).toBe(422);
    expect(years.body.message).toBe(noMatchMessage('no song is from 1950–1959'));
  });
});
