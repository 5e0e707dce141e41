import { describe, expect, it } from 'vitest';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { Candidate } from '../discovery.repository.js';
import { parsePrompt } from '../prompt/parse-prompt.js';
import { calibrate, CALIBRATION_FULL_AT, MIN_CLOSE_SONGS, orderByFlow, rankSongs, scoreSong } from './rank.js';

let nextId = 1;
function song(overrides: Partial<SongFeatures>, tags: Partial<Candidate> = {}): Candidate {
  const features: SongFeatures = {
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
    onsetRate: 3,
    dynamicComplexity: 3,
    acousticness: 0.5,
    vocalPresence: 0.5,
    ...overrides,
  };
  const id = nextId++;
  return {
    id,
    displayName: `Song ${id}`,
    title: `Song ${id}`,
    artist: `Artist ${id}`,
    album: null,
    genre: null,
    year: null,
    durationSeconds: 200,
    transcript: null,
    features,
    vector: [],
    ...tags,
  };
}
const none = { artists: [], albums: [], genres: [] };

describe('ranking', () => {
  it('scores a calm song above a loud one for a sleep prompt, and drops the loud one', () => {
    const calm = song({ energy: 0.08, loudnessLufs: -30, bpm: 70, acousticness: 0.8 });
    const loud = song({ energy: 0.9, loudnessLufs: -8, bpm: 140, acousticness: 0.2 });
    const query = parsePrompt('something calm to fall asleep to', none);
    expect(scoreSong(query, calm)).toBeGreaterThan(scoreSong(query, loud));
    expect(rankSongs(query, [calm, loud]).map((entry) => entry.candidate.id)).toEqual([calm.id]);
  });

  it('filters by genre, decade and negations', () => {
    const rock80 = song({}, { genre: 'Rock', year: 1984 });
    const jazz80 = song({}, { genre: 'Jazz', year: 1986 });
    const rock95 = song({}, { genre: 'Rock', year: 1995 });
    const vocabulary = { artists: [], albums: [], genres: ['Rock', 'Jazz'] };
    expect(rankSongs(parsePrompt('80s rock', vocabulary), [rock80, jazz80, rock95]).map((entry) => entry.candidate.id)).toEqual([rock80.id]);
    expect(rankSongs(parsePrompt('no rock', vocabulary), [rock80, jazz80, rock95]).map((entry) => entry.candidate.id)).toEqual([jazz80.id]);
  });

  it('dedupes the same song and varies artists', () => {
    const songs = [
      ...Array.from({ length: 6 }, () => song({ energy: 0.9 }, { artist: 'Solo' })),
      song({ energy: 0.85 }, { title: 'Twice', artist: 'Pair' }),
      song({ energy: 0.85 }, { title: 'Twice', artist: 'Pair' }),
      ...Array.from({ length: 4 }, (_, i) => song({ energy: 0.8 }, { artist: `Other ${i}` })),
    ];
    const ranked = rankSongs(parsePrompt('5 energetic songs', none), songs);
    expect(ranked).toHaveLength(5);
    expect(ranked.filter((entry) => entry.candidate.artist === 'Solo').length).toBeLessThanOrEqual(2);
    expect(ranked.filter((entry) => entry.candidate.title === 'Twice').length).toBeLessThanOrEqual(1);
  });

  it('sizes by minutes', () => {
    const songs = Array.from({ length: 40 }, () => song({ energy: 0.9 }, { durationSeconds: 300 }));
    const ranked = rankSongs(parsePrompt('half an hour of energetic music', none), songs);
    expect(ranked.reduce((sum, entry) => sum + (entry.candidate.durationSeconds ?? 0), 0)).toBe(1800);
  });

  it('gives each song a reason from what the prompt asked', () => {
    const fast = song({ bpm: 150, energy: 0.9, mode: 'major', brightness: 0.8 });
    const [entry] = rankSongs(parsePrompt('upbeat bright songs for running', none), [fast]);
    expect(entry?.reason).toContain('fast (150 BPM)');
    expect(entry?.reason).toContain('high energy'.replace('high', fast.features.energyLevel));
    expect(entry?.reason).toContain('bright');
  });

  it('judges brightness and vocals against a library of some size, not on the raw scale', () => {
    // A library that is dull and sung throughout on the raw scale: its brightest and least sung still answer.
    const songs = Array.from({ length: 40 }, (_, i) => song({ brightness: 0.1 + i * 0.005, vocalPresence: 0.6 + (i % 10) * 0.01 }));
    const bright = rankSongs(parsePrompt('bright', none), songs);
    expect(bright.length).toBeGreaterThan(0);
    const brightness = bright.map((entry) => Math.round(entry.candidate.features.brightness * 1000) / 1000);
    for (const value of [0.295, 0.29, 0.285, 0.28, 0.275]) expect(brightness).toContain(value);
    expect(Math.min(...brightness)).toBeGreaterThan(0.2);
    expect(bright.find((entry) => entry.candidate.features.brightness > 0.29)?.reason).toContain('bright');
    const instrumental = rankSongs(parsePrompt('songs without vocals', none), songs);
    expect(instrumental.length).toBeGreaterThan(0);
    const vocals = instrumental.map((entry) => Math.round(entry.candidate.features.vocalPresence * 100) / 100);
    expect(vocals.filter((value) => value === 0.6)).toHaveLength(4);
    expect(Math.max(...vocals)).toBeLessThan(0.64);

    // Percentiles with ties share the middle; a lone song keeps its raw value.
    const calibration = calibrate(Array.from({ length: CALIBRATION_FULL_AT }, () => song({ brightness: 0.2 })));
    expect(calibration.brightness(song({ brightness: 0.2 }).features)).toBeCloseTo(0.5);
    expect(calibrate([song({ brightness: 0.2 })]).brightness(song({ brightness: 0.2 }).features)).toBe(0.2);
  });

  it('finds slow songs by their tempo alone, loud or quiet', () => {
    const slowLoud = song({ bpm: 72, energy: 0.9, loudnessLufs: -8 });
    const slowQuiet = song({ bpm: 80, energy: 0.1, loudnessLufs: -30 });
    const fastQuiet = song({ bpm: 150, energy: 0.15, loudnessLufs: -28 });
    const ids = rankSongs(parsePrompt('slow songs', none), [slowLoud, slowQuiet, fastQuiet]).map((entry) => entry.candidate.id);
    expect(ids.sort()).toEqual([slowLoud.id, slowQuiet.id].sort());
  });

  it('plays the best answers, not half-answers, once it has enough of them', () => {
    const calm = Array.from({ length: 12 }, () => song({ bpm: 72, energy: 0.1, loudnessLufs: -29 }));
    // Quiet but fast: they answer "relaxing" only halfway, and a wind-down would play them first.
    const quietFast = Array.from({ length: 12 }, () => song({ bpm: 150, energy: 0.2, loudnessLufs: -28 }));
    const ranked = rankSongs(parsePrompt('relaxing', none), [...quietFast, ...calm]);
    expect(ranked.map((entry) => entry.candidate.features.bpm)).toEqual(Array(12).fill(72));

    // Too few close ones: the best of the rest fill up to ten.
    const few = rankSongs(parsePrompt('relaxing', none), [...quietFast, ...calm.slice(0, 3)]);
    expect(few).toHaveLength(MIN_CLOSE_SONGS);
    expect(few.filter((entry) => entry.candidate.features.bpm === 72)).toHaveLength(3);

    // A size in the prompt is honoured with every song that passes.
    expect(rankSongs(parsePrompt('15 relaxing songs', none), [...quietFast, ...calm.slice(0, 3)])).toHaveLength(15);
  });

  it('takes a target at the end of a scale as at least (or at most) that much', () => {
    const loudest = song({ energy: 1, loudnessLufs: -6, bpm: 140 });
    const atTarget = song({ energy: 0.9, loudnessLufs: -8, bpm: 140 });
    const query = parsePrompt('intense', none);
    expect(scoreSong(query, loudest)).toBeGreaterThanOrEqual(scoreSong(query, atTarget));
  });

  it('orders the energy: winding down, building up, or an arc', () => {
    const songs = [0.2, 0.9, 0.5, 0.7, 0.3, 0.6].map((energy) => ({ candidate: song({ energy }) }));
    const energies = (flow: 'arc' | 'wind-down' | 'build-up') => orderByFlow(songs, flow).map((entry) => entry.candidate.features.energy);
    expect(energies('wind-down')).toEqual([0.9, 0.7, 0.6, 0.5, 0.3, 0.2]);
    expect(energies('build-up')).toEqual([0.2, 0.3, 0.5, 0.6, 0.7, 0.9]);
    expect(energies('arc')).toEqual([0.5, 0.6, 0.7, 0.9, 0.3, 0.2]);
  });
});
