import { describe, expect, it } from 'vitest';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { Candidate } from '../discovery.repository.js';
import { parsePrompt } from '../prompt/parse-prompt.js';
import { applicableQuery } from './applicability.js';
import {
  calibrate,
  CALIBRATION_FULL_AT,
  fillWithNearest,
  HEAD_SIZE,
  MIN_CLOSE_SONGS,
  NEAREST_REASON_PREFIX,
  orderByFlow,
  rankSongs,
  scoreSong,
  tierOf,
  whyNothingMatches,
} from './rank.js';
import { perceivedTempo } from './tempo.js';

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
    onsetRate: 4,
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
const ids = (ranked: { candidate: Candidate }[]) => ranked.map((entry) => entry.candidate.id);

/** A seeded library of varied songs (each its own artist), for invariants. */
function library(seed: number, count: number): Candidate[] {
  let state = seed;
  const random = () => (state = (state * 16_807) % 2_147_483_647) / 2_147_483_647;
  return Array.from({ length: count }, () => {
    const energy = random();
    return song({
      energy,
      loudnessLufs: -36 + 30 * (0.7 * energy + 0.3 * random()),
      bpm: 60 + random() * 120,
      onsetRate: 1 + random() * 6,
      brightness: random(),
      mode: random() < 0.5 ? 'major' : 'minor',
      vocalPresence: random(),
      danceability: random(),
      acousticness: random(),
    });
  });
}

describe('ranking', () => {
  it('scores a calm song above a loud one for a sleep prompt, and drops the loud one', () => {
    const calm = song({ energy: 0.08, loudnessLufs: -30, bpm: 70, acousticness: 0.8, brightness: 0.2 });
    const loud = song({ energy: 0.9, loudnessLufs: -8, bpm: 140, acousticness: 0.2 });
    const query = parsePrompt('something calm to fall asleep to', none);
    expect(scoreSong(query, calm)).toBeGreaterThan(scoreSong(query, loud));
    expect(ids(rankSongs(query, [calm, loud]))).toEqual([calm.id]);
  });

  it('filters by genre, decade and negations', () => {
    const rock80 = song({}, { genre: 'Rock', year: 1984 });
    const jazz80 = song({}, { genre: 'Jazz', year: 1986 });
    const rock95 = song({}, { genre: 'Indie Rock', year: 1995 });
    const vocabulary = { artists: [], albums: [], genres: ['Rock', 'Jazz', 'Indie Rock'] };
    expect(ids(rankSongs(parsePrompt('80s rock', vocabulary), [rock80, jazz80, rock95]))).toEqual([rock80.id]);
    expect(ids(rankSongs(parsePrompt('no rock', vocabulary), [rock80, jazz80, rock95]))).toEqual([jazz80.id]);
  });

  it('dedupes the same song and varies artists', () => {
    const songs = [
      ...Array.from({ length: 6 }, () => song({ energy: 0.9, loudnessLufs: -8, bpm: 150 }, { artist: 'Solo' })),
      song({ energy: 0.85, loudnessLufs: -9, bpm: 150 }, { title: 'Twice', artist: 'Pair' }),
      song({ energy: 0.85, loudnessLufs: -9, bpm: 150 }, { title: 'Twice', artist: 'Pair' }),
      ...Array.from({ length: 4 }, (_, i) => song({ energy: 0.8, loudnessLufs: -10, bpm: 150 }, { artist: `Other ${i}` })),
    ];
    const ranked = rankSongs(parsePrompt('5 energetic songs', none), songs);
    expect(ranked).toHaveLength(5);
    expect(ranked.filter((entry) => entry.candidate.artist === 'Solo').length).toBeLessThanOrEqual(2);
    expect(ranked.filter((entry) => entry.candidate.title === 'Twice').length).toBeLessThanOrEqual(1);
  });

  it('sizes by minutes', () => {
    const songs = Array.from({ length: 40 }, () => song({ energy: 0.9, loudnessLufs: -8, bpm: 150 }, { durationSeconds: 300 }));
    const ranked = rankSongs(parsePrompt('half an hour of energetic music', none), songs);
    expect(ranked.reduce((sum, entry) => sum + (entry.candidate.durationSeconds ?? 0), 0)).toBe(1800);
  });

  it('gives each song a reason from what the prompt asked', () => {
    const fast = song({ bpm: 150, onsetRate: 5, energy: 0.9, loudnessLufs: -8, mode: 'major', brightness: 0.8 });
    const [entry] = rankSongs(parsePrompt('upbeat bright songs for running', none), [fast]);
    expect(entry?.reason).toContain('fast (150 BPM)');
    expect(entry?.reason).toContain('high energy'.replace('high', fast.features.energyLevel));
    expect(entry?.reason).toContain('bright');
  });

  describe('tempo as a listener hears it', () => {
    it("trusts the analysis's octave when it is sure, and never calls a slow song fast", () => {
      // The analysis read a ballad with eighth-note hats at 75, not 150 (analysis/tempo-octave.ts).
      const ballad = song({ bpm: 75, bpmConfidence: 0.9, onsetRate: 2.4, energy: 0.15, loudnessLufs: -30 });
      expect(perceivedTempo(ballad.features)).toEqual({ bpm: 75 });
      const [entry] = rankSongs(parsePrompt('slow quiet songs', none), [ballad]);
      expect(entry?.reason).toContain('slow (75 BPM)');
      expect(entry?.reason).not.toMatch(/fast|150/u);
    });

    it('keeps both octaves when the analysis was unsure, ranking the song after clear answers and naming no tempo', () => {
      const unclear = song({ bpm: 140, bpmConfidence: 0.5, onsetRate: 2.3, energy: 0.6, loudnessLufs: -12 });
      expect(perceivedTempo(unclear.features)).toEqual({ bpm: 140, alternative: 70 });
      expect(perceivedTempo({ bpm: 70, bpmConfidence: 0.5 })).toEqual({ bpm: 70, alternative: 140 });
      const clearFast = song({ bpm: 140, onsetRate: 4.8, energy: 0.6, loudnessLufs: -12 });
      const clearSlow = song({ bpm: 70, onsetRate: 2.3, energy: 0.6, loudnessLufs: -12 });
      const fast = ids(rankSongs(parsePrompt('fast songs', none), [unclear, clearFast, clearSlow]));
      expect(fast[0]).toBe(clearFast.id);
      expect(fast).not.toContain(clearSlow.id);
      for (const prompt of ['fast songs', 'music for running', 'slow songs']) {
        const reason = rankSongs(parsePrompt(prompt, none), [unclear])
          .map((entry) => entry.reason)
          .join();
        expect(reason).not.toMatch(/fast|slow|BPM/u);
      }
    });

    it('reads "run" as the fast and loud end of whatever tempo range the library has', () => {
      // A library of slow songs only (60 to 100 BPM): a run playlist is its fastest, loudest ones, not nothing.
      const songs = Array.from({ length: 30 }, (_, i) =>
        song({ bpm: 60 + (i * 40) / 29, onsetRate: 3, energy: (i % 10) / 10, loudnessLufs: -30 + (i % 10) * 2.2 }),
      );
      const ranked = rankSongs(parsePrompt('music for a run', none), songs);
      expect(ranked.length).toBeGreaterThan(0);
      const chosen = ranked.slice(0, 5).map((entry) => entry.candidate.features);
      for (const f of chosen) expect(f.bpm).toBeGreaterThan(75);
      expect(Math.min(...chosen.map((f) => f.energy))).toBeGreaterThanOrEqual(0.5);
    });

    it('finds slow songs by their tempo alone, loud or quiet', () => {
      const slowLoud = song({ bpm: 72, onsetRate: 2, energy: 0.9, loudnessLufs: -8 });
      const slowQuiet = song({ bpm: 80, onsetRate: 2, energy: 0.1, loudnessLufs: -30 });
      const fastQuiet = song({ bpm: 150, onsetRate: 5, energy: 0.15, loudnessLufs: -28 });
      expect(ids(rankSongs(parsePrompt('slow songs', none), [slowLoud, slowQuiet, fastQuiet])).sort()).toEqual([slowLoud.id, slowQuiet.id].sort());
    });
  });

  describe('voice', () => {
    // Half the library instrumental: the detector's probability is read as it is, not as a percentile.
    const voiced = Array.from({ length: 20 }, (_, i) => song({ vocalPresence: 0.8 + (i % 5) * 0.04, energy: 0.3, loudnessLufs: -24 }));
    const instrumental = Array.from({ length: 20 }, (_, i) => song({ vocalPresence: 0.05 + (i % 5) * 0.05, energy: 0.3 + (i % 3) * 0.2, loudnessLufs: -24 }));

    it('answers "instrumental tracks only" with instrumentals', () => {
      const ranked = rankSongs(parsePrompt('instrumental tracks only', none), [...voiced, ...instrumental]);
      expect(ranked.length).toBeGreaterThanOrEqual(MIN_CLOSE_SONGS);
      for (const entry of ranked) expect(entry.candidate.features.vocalPresence).toBeLessThan(0.5);
      expect(ranked.every((entry) => entry.reason.includes('no vocals'))).toBe(true);
    });

    it('answers "focus music without vocals" with instrumentals first, and "with vocals" with voices', () => {
      const focus = rankSongs(parsePrompt('focus music without vocals', none), [...voiced, ...instrumental]);
      for (const entry of focus.slice(0, HEAD_SIZE)) expect(entry.candidate.features.vocalPresence).toBeLessThan(0.5);
      const sung = rankSongs(parsePrompt('songs with vocals', none), [...voiced, ...instrumental]);
      for (const entry of sung.slice(0, HEAD_SIZE)) expect(entry.candidate.features.vocalPresence).toBeGreaterThanOrEqual(0.5);
    });
  });

  describe('years and lyrics', () => {
    it('reads "nostalgic" as the oldest third of the library, whatever its years', () => {
      const songs = Array.from({ length: 30 }, (_, i) => song({ energy: ((i * 7) % 10) / 10 }, { year: 2005 + (i % 15) }));
      const ranked = rankSongs(parsePrompt('nostalgic', none), songs);
      const years = ranked.slice(0, HEAD_SIZE).map((entry) => entry.candidate.year!);
      expect(Math.max(...years)).toBeLessThanOrEqual(2009);
      expect(ranked[0]?.reason).toMatch(/from 20\d\d/u);
    });

    it('reads "romantic" as love in the lyrics before slow', () => {
      const fastLove = song({ bpm: 150, onsetRate: 5, energy: 0.8, loudnessLufs: -9 }, { transcript: 'I love you, my darling, kiss me' });
      const slowSilent = song({ bpm: 70, onsetRate: 2, energy: 0.2, loudnessLufs: -28 }, { transcript: 'the train leaves at nine' });
      const slow = Array.from({ length: 12 }, () =>
        song({ bpm: 70, onsetRate: 2, energy: 0.2, loudnessLufs: -28 }, { transcript: 'the train leaves at nine' }),
      );
      const ranked = ids(rankSongs(parsePrompt('romantic', none), [slowSilent, ...slow, fastLove]));
      expect(ranked.slice(0, HEAD_SIZE)).toContain(fastLove.id);
      expect(tierOf(parsePrompt('romantic', none), fastLove)).toBe(1);
      expect(tierOf(parsePrompt('romantic', none), slowSilent)).toBe(0);
    });

    it('filters a theme by the lyrics in close forms, English and Hebrew, and never pads with others', () => {
      const sea = song({}, { transcript: 'The ocean waves keep calling, I sail away' });
      const seas = song({}, { transcript: 'Across the seven seas we go' });
      const left = song({}, { transcript: 'I left the house where I grew up, goodbye' });
      const hebrewSea = song({}, { transcript: 'הגלים בים קוראים לי' });
      const hebrewHome = song({}, { transcript: 'עזבתי את הבית שבו גדלתי' });
      const other = song({}, { transcript: 'Dancing in the city tonight' });
      const silent = song({});
      const all = [sea, seas, left, hebrewSea, hebrewHome, other, silent];
      expect(ids(rankSongs(parsePrompt('songs about the sea', none), all)).sort()).toEqual([sea.id, seas.id, hebrewSea.id].sort());
      // Either language's lyrics answer either language's theme.
      expect(ids(rankSongs(parsePrompt('songs about leaving home', none), all)).sort()).toEqual([left.id, hebrewHome.id].sort());
      expect(ids(rankSongs(parsePrompt('שירים על הים', none), all)).sort()).toEqual([sea.id, seas.id, hebrewSea.id].sort());
      expect(ids(rankSongs(parsePrompt('שירים על עזיבת הבית', none), all)).sort()).toEqual([left.id, hebrewHome.id].sort());
      expect(rankSongs(parsePrompt('songs about the sea', none), all)[0]?.reason).toContain('lyrics about “sea”');
    });

    it('says when a theme cannot be applied because lyrics are known for too few songs', () => {
      const songs = [song({}, { transcript: 'city lights' }), ...Array.from({ length: 5 }, () => song({}))];
      const applied = applicableQuery(parsePrompt('songs about the sea', none), songs);
      expect(applied.query.lyrics).toEqual([]);
      expect(applied.notes.join()).toMatch(/lyrics are known for only 1 of 6 songs/u);
      // Some songs have it: applied, and the description warns that others may be missing.
      const withSea = [song({}, { transcript: 'the sea' }), ...songs];
      const partly = applicableQuery(parsePrompt('songs about the sea', none), withSea);
      expect(partly.query.lyrics).toEqual(['sea']);
      expect(partly.notes.join()).toMatch(/may be missing/u);
      // Years: "nostalgic" needs them.
      expect(applicableQuery(parsePrompt('nostalgic', none), songs).notes.join()).toMatch(/Years are known for only 0 of 6/u);
      expect(applicableQuery(parsePrompt('reggae', none), songs).notes).toContain('No song is tagged reggae: these sound like it');
    });
  });

  it('chooses only among the allowed songs ("my songs")', () => {
    const mine = song({ energy: 0.1, loudnessLufs: -30, bpm: 70, onsetRate: 2, brightness: 0.2 });
    const theirs = song({ energy: 0.1, loudnessLufs: -30, bpm: 70, onsetRate: 2, brightness: 0.2 });
    expect(ids(rankSongs(parsePrompt('calm', none), [mine, theirs], { allowed: new Set([mine.id]) }))).toEqual([mine.id]);
  });

  it('judges brightness against a library of some size, not on the raw scale', () => {
    const songs = Array.from({ length: 40 }, (_, i) => song({ brightness: 0.1 + i * 0.005 }));
    const bright = rankSongs(parsePrompt('bright', none), songs);
    const brightness = bright.map((entry) => Math.round(entry.candidate.features.brightness * 1000) / 1000);
    for (const value of [0.295, 0.29, 0.285, 0.28, 0.275]) expect(brightness).toContain(value);
    expect(Math.min(...brightness)).toBeGreaterThan(0.2);
    const calibration = calibrate(Array.from({ length: CALIBRATION_FULL_AT }, () => song({ brightness: 0.2 })));
    expect(calibration.brightness(song({ brightness: 0.2 }).features)).toBeCloseTo(0.5);
    expect(calibrate([song({ brightness: 0.2 })]).brightness(song({ brightness: 0.2 }).features)).toBe(0.2);
  });

  it('plays the best answers, not half-answers, once it has enough of them', () => {
    const calm = Array.from({ length: 12 }, () => song({ bpm: 72, onsetRate: 2, energy: 0.1, loudnessLufs: -29, brightness: 0.3 }));
    // Quiet but fast: they answer "relaxing" only halfway.
    const quietFast = Array.from({ length: 12 }, () => song({ bpm: 150, onsetRate: 5, energy: 0.2, loudnessLufs: -28, brightness: 0.3 }));
    const ranked = rankSongs(parsePrompt('relaxing', none), [...quietFast, ...calm]);
    expect(ranked.map((entry) => entry.candidate.features.bpm)).toEqual(Array(12).fill(72));
    expect(rankSongs(parsePrompt('15 relaxing songs', none), [...quietFast, ...calm.slice(0, 3)]).length).toBeLessThanOrEqual(15);
  });

  describe('order', () => {
    const prompts = ['something calm to fall asleep to', 'music for running', 'happy songs', 'relaxing', 'energetic', 'instrumental', 'party'];

    it.each(prompts)('keeps the ten best answers first for "%s", whatever the energy flow', (prompt) => {
      for (const seed of [3, 11, 29, 47]) {
        const songs = library(seed, 60);
        const query = parsePrompt(prompt, none);
        const calibration = calibrate(songs);
        const ranked = rankSongs(query, songs);
        const key = (s: Candidate) => tierOf(query, s, calibration) * 10 + scoreSong(query, s, calibration);
        const head = ranked.slice(0, HEAD_SIZE).map((entry) => key(entry.candidate));
        const rest = ranked.slice(HEAD_SIZE).map((entry) => key(entry.candidate));
        if (rest.length > 0) expect(Math.min(...head)).toBeGreaterThanOrEqual(Math.max(...rest) - 1e-9);
      }
    });

    it('never opens a wind-down with its loudest song', () => {
      for (const seed of [5, 17, 31]) {
        const ranked = rankSongs(parsePrompt('something calm to fall asleep to', none), library(seed, 80));
        const head = ranked.slice(0, HEAD_SIZE).map((entry) => entry.candidate.features.energy);
        if (head.length >= 2) expect(head[0]).toBeLessThan(Math.max(...head));
      }
    });

    it('winds down, builds up, or makes an arc', () => {
      const songs = [0.2, 0.9, 0.5, 0.7, 0.3, 0.6].map((energy) => ({ candidate: song({ energy }) }));
      const energies = (flow: 'arc' | 'wind-down' | 'build-up') => orderByFlow(songs, flow).map((entry) => entry.candidate.features.energy);
      expect(energies('wind-down')).toEqual([0.7, 0.9, 0.6, 0.5, 0.3, 0.2]);
      expect(energies('build-up')).toEqual([0.2, 0.3, 0.5, 0.6, 0.7, 0.9]);
      expect(energies('arc')).toEqual([0.5, 0.6, 0.7, 0.9, 0.3, 0.2]);
    });
  });
});

describe('nearest songs when too few answer (issue 37 item 16)', () => {
  it('fills a short answer with the nearest songs, marked, after the answers', () => {
    const moody = Array.from({ length: 12 }, (_, i) => song({ mode: 'minor', energy: 0.45 + i * 0.02, loudnessLufs: -14, bpm: 90 + i * 3 }));
    const query = parsePrompt('upbeat songs', none);
    const answers = rankSongs(query, moody);
    expect(answers.length).toBeLessThan(MIN_CLOSE_SONGS);
    const filled = fillWithNearest(query, moody, answers);
    expect(filled).toHaveLength(MIN_CLOSE_SONGS);
    expect(filled.slice(0, answers.length)).toEqual(answers);
    const nearest = filled.slice(answers.length);
    expect(nearest.every((entry) => entry.nearest === true && entry.reason.startsWith(NEAREST_REASON_PREFIX))).toBe(true);
    expect(new Set(ids(filled)).size).toBe(MIN_CLOSE_SONGS);
    // The nearest in order of how near they are: more energetic before less.
    const energies = nearest.map((entry) => entry.candidate.features.energy);
    expect(energies).toEqual([...energies].sort((a, b) => b - a));
  });

  it('leaves an answer that is long enough (or as long as asked) alone', () => {
    const songs = library(7, 40);
    const query = parsePrompt('energetic', none);
    const answers = rankSongs(query, songs);
    expect(answers.length).toBeGreaterThanOrEqual(MIN_CLOSE_SONGS);
    expect(fillWithNearest(query, songs, answers)).toBe(answers);
  });

  it('offers nothing that fits not at all, and says why', () => {
    const loud = Array.from({ length: 5 }, () => song({ energy: 0.95, loudnessLufs: -7, bpm: 150, energyLevel: 'high' }));
    const sleep = parsePrompt('something calm to fall asleep to', none);
    expect(fillWithNearest(sleep, loud, rankSongs(sleep, loud))).toEqual([]);
    expect(whyNothingMatches(sleep, loud)).toBe('every song that fits it plays too loud or too hard');
    const quiet = Array.from({ length: 5 }, () => song({ energy: 0.05, loudnessLufs: -34, bpm: 70, energyLevel: 'low' }));
    const party = parsePrompt('intense loud party music', none);
    expect(fillWithNearest(party, quiet, rankSongs(party, quiet))).toEqual([]);
    expect(whyNothingMatches(party, quiet)).toBe('every song that fits it plays too softly or too gently');
  });

  it('names the filter that leaves nothing', () => {
    const rock = [song({}, { genre: 'Rock', year: 1990, transcript: 'the sea and the sky' })];
    const vocabulary = { artists: [], albums: [], genres: ['Rock'] };
    expect(whyNothingMatches(parsePrompt('songs about volcanoes', vocabulary), rock)).toBe("no song's lyrics are about “volcanoes”");
    expect(whyNothingMatches(parsePrompt('rock from the 1950s', vocabulary), rock)).toBe('no song is from 1950–1959');
    expect(whyNothingMatches(parsePrompt('rock from 2001', vocabulary), rock)).toBe('no song is from 2001 or later');
    expect(whyNothingMatches(parsePrompt('no rock', vocabulary), rock)).toBe('every song is tagged rock');
  });
});
