/**
 * POST /api/playlists/generate-playlist-by-prompt on a 10,000-song analysed library (songs
 * and analyses inserted in bulk, features drawn at random, a third with genre and year
 * tags): 20 prompts × 10 rounds, embedded parser; median and p95 per engine (goal: p95 under
 * 300 ms on PGlite). Each generation saves its playlist, as in production.
 */
import type { SongFeatures } from '@encore/common/analysis.contract';
import { featureVector } from '../../server/src/features/discovery/analysis/analyse-signal.js';
import { songAnalyses } from '../../server/src/features/discovery/discovery.schema.js';
import { songs } from '../../server/src/features/library/library.schema.js';
import { benchEngines, startBenchApp, summarize } from '../library/bench-app.js';

const SONGS = 10_000;
const ROUNDS = 10;
const PROMPTS = [
  'something calm to fall asleep to',
  'chill coding beats',
  'upbeat songs for a morning run',
  'melancholic songs without vocals',
  'an hour of 80s party music',
  'energetic',
  'relaxing',
  'nostalgic',
  'romantic',
  'melancholic',
  'uplifting',
  'focused',
  'dreamy',
  'intense',
  'peaceful',
  '5 fast songs, no rock',
  'jazz for dinner',
  'songs about love',
  'שירים שקטים לשינה',
  'loud dance music from the 90s',
];
const GENRES = ['Rock', 'Pop', 'Jazz', 'Electronic', 'Classical', 'Hip Hop', 'Folk'];

let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

function randomFeatures(): SongFeatures {
  const energy = random();
  return {
    bpm: 60 + random() * 120,
    bpmConfidence: random(),
    key: ['C', 'D', 'E', 'F', 'G', 'A', 'B'][Math.floor(random() * 7)]!,
    mode: random() < 0.5 ? 'major' : 'minor',
    keyStrength: random(),
    loudnessLufs: -30 + energy * 22,
    loudnessRange: random() * 10,
    energy,
    energyLevel: energy > 0.62 ? 'high' : energy > 0.38 ? 'medium' : 'low',
    danceability: random(),
    spectralCentroidHz: 500 + random() * 3000,
    brightness: random(),
    onsetRate: random() * 6,
    dynamicComplexity: random() * 8,
    acousticness: random(),
    vocalPresence: random(),
  };
}

for (const engine of benchEngines) {
  const bench = await startBenchApp(engine, { ANALYSIS_BACKFILL: 'false', ANALYSIS_ON_INGEST: 'false' });
  const db = bench.app.encore.platform.database.db;
  for (let start = 0; start < SONGS; start += 500) {
    const rows = await db
      .insert(songs)
      .values(
        Array.from({ length: 500 }, (_, i) => {
          const n = start + i;
          const tagged = n % 3 === 0;
          return {
            ownerId: bench.userId,
            displayName: `Song ${n}`,
            fileName: `song-${n}.mp3`,
            fileType: 'audio/mpeg',
            storageKey: `uploads/${bench.userId}/s${n}/song.mp3`,
            size: 3_000_000,
            title: `Song ${n}`,
            artist: `Artist ${n % 700}`,
            album: `Album ${n % 1500}`,
            durationSeconds: 150 + (n % 120),
            genre: tagged ? GENRES[n % GENRES.length]! : null,
            year: tagged ? 1960 + (n % 64) : null,
            transcript: n % 4 === 0 ? 'my love is like the rain falling on the city at night, and I sing to you' : null,
          };
        }),
      )
      .returning({ id: songs.id });
    await db.insert(songAnalyses).values(
      rows.map((row) => {
        const features = randomFeatures();
        return { songId: row.id, status: 'analysed' as const, features, vector: featureVector(features), analyserVersion: 1 };
      }),
    );
  }
  const times: number[] = [];
  const failures: string[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const prompt of PROMPTS) {
      const started = performance.now();
      const response = await bench.app.inject({
        method: 'POST',
        url: '/api/playlists/generate-playlist-by-prompt',
        headers: { authorization: `Bearer ${bench.token}` },
        payload: { prompt },
      });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 201) failures.push(`${prompt}: ${response.statusCode}`);
      if (round > 0) times.push(elapsed); // round 0 warms up
    }
  }
  const { median, p95, mean } = summarize(times);
  console.log(
    `${engine}: ${SONGS} analysed songs, ${times.length} generations: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, mean ${mean.toFixed(1)} ms (goal p95 < 300 ms on PGlite)`,
  );
  if (failures.length > 0) console.log(`  not 201: ${[...new Set(failures)].join('; ')}`);
  // The first generation after the library changed reads every analysed song again.
  const cold: number[] = [];
  for (const prompt of PROMPTS) {
    await db.update(songAnalyses).set({ analyserVersion: 1 });
    const started = performance.now();
    await bench.app.inject({
      method: 'POST',
      url: '/api/playlists/generate-playlist-by-prompt',
      headers: { authorization: `Bearer ${bench.token}` },
      payload: { prompt },
    });
    cold.push(performance.now() - started);
  }
  const first = summarize(cold);
  console.log(
    `${engine}: the first generation after a change to the library (its candidates read again): median ${first.median.toFixed(1)} ms, p95 ${first.p95.toFixed(1)} ms`,
  );
  await bench.close();
}
