import type { SongFeatures } from '@encore/common/analysis.contract';
import { AI_PLAYLIST_SIZE_DEFAULT, AI_PLAYLIST_SIZE_MAX } from '@encore/common/discovery.contract';
import type { Candidate } from '../discovery.repository.js';
import { normalise } from '../prompt/parse-prompt.js';
import type { PromptQuery, TargetFeature } from '../prompt/prompt-query.js';
import { detectLanguage } from './language.js';

export interface RankedSong {
  candidate: Candidate;
  score: number;
  reason: string;
}

/** Below this a song answers the prompt too poorly to be offered (no duds). */
export const MIN_SCORE = 0.6;
/**
 * Without a size in the prompt, songs this far below the best answer are left out once
 * `MIN_CLOSE_SONGS` remain: a calm playlist is the calm songs, not padded with quiet fast ones
 * that half-answer it (and that a wind-down order would play first).
 */
export const SCORE_MARGIN = 0.15;
export const MIN_CLOSE_SONGS = 10;
const ASSUMED_SONG_SECONDS = 210;

/**
 * Brightness and vocal presence are the least calibrated estimates: a spectral centroid or a
 * vocal-band ratio means one thing for an orchestra and another for a drum machine. In a
 * library of some size they are judged against the library itself, as their percentile among
 * its songs ("bright" = among your brightest); a small library uses the raw estimate, and in
 * between the two blend. Tempo, loudness, energy and mode are measured on absolute scales.
 */
export interface Calibration {
  brightness(features: SongFeatures): number;
  vocals(features: SongFeatures): number;
}

/** From this many songs on, the library's own scale alone; fewer blend towards the raw value. */
export const CALIBRATION_FULL_AT = 30;

const RAW: Calibration = { brightness: (f) => f.brightness, vocals: (f) => f.vocalPresence };

export function calibrate(songs: readonly { features: SongFeatures }[]): Calibration {
  if (songs.length < 2) return RAW;
  const weight = Math.min(1, (songs.length - 1) / (CALIBRATION_FULL_AT - 1));
  const relative = (pick: (f: SongFeatures) => number) => {
    const sorted = songs.map((song) => pick(song.features)).sort((a, b) => a - b);
    // Mid-rank percentile: ties share their middle place, so equal songs score alike.
    const percentile = (value: number) => (countBelow(sorted, value, false) + countBelow(sorted, value, true)) / 2 / sorted.length;
    return (f: SongFeatures) => (1 - weight) * pick(f) + weight * percentile(pick(f));
  };
  return { brightness: relative(RAW.brightness), vocals: relative(RAW.vocals) };
}

/** How many of the ascending `sorted` are below `value` (or at most `value`), by binary search. */
function countBelow(sorted: readonly number[], value: number, inclusive: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const below = inclusive ? sorted[middle]! <= value : sorted[middle]! < value;
    if (below) low = middle + 1;
    else high = middle;
  }
  return low;
}

function featureValue(feature: TargetFeature, f: SongFeatures, calibration: Calibration): number {
  switch (feature) {
    case 'energy':
      return f.energy;
    case 'danceability':
      return f.danceability;
    case 'brightness':
      return calibration.brightness(f);
    case 'acousticness':
      return f.acousticness;
    case 'vocals':
      return calibration.vocals(f);
    case 'major':
      return f.mode === 'major' ? 1 : 0;
    case 'loudness':
      return loudnessScale(f);
  }
}

const loudnessScale = (f: SongFeatures) => Math.min(1, Math.max(0, (f.loudnessLufs + 32) / 24));
// Vocal presence is the roughest estimate: it weighs little unless the prompt is about vocals.
const WEIGHTS: Record<TargetFeature, number> = { energy: 1.5, danceability: 0.8, brightness: 0.7, acousticness: 0.7, vocals: 0.5, major: 0.8, loudness: 0.8 };
/** A difference of 2/3 of the scale (or more) scores nothing: "calm" is not half-answered by a loud song. */
const closeness = (difference: number) => 1 - Math.min(1, Math.abs(difference) * 1.5);

/** Filters on tags, lyrics and language: a song failing one is not a candidate at all. */
export function passesFilters(query: PromptQuery, song: Candidate): boolean {
  const genre = song.genre ? normalise(song.genre) : '';
  if (query.genres.length > 0 && !query.genres.some((wanted) => genre.includes(wanted))) return false;
  if (query.excludeGenres.some((unwanted) => genre.includes(unwanted))) return false;
  const artist = song.artist ? normalise(song.artist) : '';
  if (query.artists.length > 0 && !query.artists.some((wanted) => artist === normalise(wanted))) return false;
  if (query.excludeArtists.some((unwanted) => artist === normalise(unwanted))) return false;
  if (query.albums.length > 0 && !query.albums.some((wanted) => song.album !== null && normalise(song.album) === normalise(wanted))) return false;
  if (query.years && (song.year === null || song.year < query.years.from || song.year > query.years.to)) return false;
  if (query.languages.length > 0 && !query.languages.includes(detectLanguage(song.transcript) ?? '')) return false;
  return true;
}

/** The tempo nearest the wanted range among the measured one and its double and half (trackers err by octaves). */
function tempoFit(bpm: number, range: NonNullable<PromptQuery['tempo']>): { fit: number; bpm: number } {
  let best = { fit: 0, bpm };
  for (const [candidate, penalty] of [
    [bpm, 0],
    [bpm * 2, 0.5],
    [bpm / 2, 0.5],
  ] as const) {
    const below = range.min !== undefined ? Math.max(0, range.min - candidate) : 0;
    const above = range.max !== undefined ? Math.max(0, candidate - range.max) : 0;
    const fit = Math.max(0, 1 - (below + above) / 30 - penalty);
    if (fit > best.fit) best = { fit, bpm: candidate };
  }
  return best;
}

/**
 * How far a value misses its target. A target near an end of the scale asks for "at least" or
 * "at most" that much: for "bright" the brightest song is no worse than one at the target.
 */
function beyond(value: number, wanted: number): number {
  if (wanted >= 0.8 && value >= wanted) return 0;
  if (wanted <= 0.2 && value <= wanted) return 0;
  return value - wanted;
}

/** How well a song answers the query's targets, 0..1 (1 when the query has no target). */
export function scoreSong(query: PromptQuery, song: Candidate, calibration: Calibration = RAW): number {
  let weighted = 0;
  let weights = 0;
  for (const [feature, wanted] of Object.entries(query.targets) as [TargetFeature, number][]) {
    const weight = WEIGHTS[feature] * (feature === 'vocals' && query.instrumental !== undefined ? 3 : 1);
    weighted += weight * closeness(beyond(featureValue(feature, song.features, calibration), wanted));
    weights += weight;
  }
  if (query.tempo) {
    weighted += 1.5 * tempoFit(song.features.bpm, query.tempo).fit;
    weights += 1.5;
  }
  let score = weights > 0 ? weighted / weights : 1;
  if (query.lyrics.length > 0) score += lyricsMatch(query, song) ? 0.1 : -0.15;
  return Math.max(0, Math.min(1, score));
}

function lyricsMatch(query: PromptQuery, song: Candidate): string | undefined {
  if (!song.transcript) return undefined;
  const words = new Set(song.transcript.toLowerCase().split(/[^\p{L}']+/u));
  return query.lyrics.find((word) => words.has(word) || words.has(`${word}s`));
}

/** The short reason a song was chosen: what the prompt asked, as the song has it. */
export function reasonFor(query: PromptQuery, song: Candidate, calibration: Calibration = RAW): string {
  const f = song.features;
  const parts: string[] = [];
  const targets = query.targets;
  const tempo = query.tempo ? tempoFit(f.bpm, query.tempo).bpm : f.bpm;
  if (query.tempo || targets.energy !== undefined)
    parts.push(tempo >= 125 ? `fast (${Math.round(tempo)} BPM)` : tempo <= 95 ? `slow (${Math.round(tempo)} BPM)` : `${Math.round(tempo)} BPM`);
  if (targets.energy !== undefined) parts.push(`${f.energyLevel} energy`);
  if (targets.loudness !== undefined && loudnessScale(f) < 0.35) parts.push('quiet');
  if (targets.loudness !== undefined && loudnessScale(f) > 0.75) parts.push('loud');
  const brightness = calibration.brightness(f);
  if (targets.brightness !== undefined) parts.push(brightness >= 0.6 ? 'bright' : brightness <= 0.3 ? 'dark, warm sound' : 'balanced sound');
  if (targets.major !== undefined) parts.push(`${f.mode} key`);
  if (targets.danceability !== undefined && f.danceability >= 0.6) parts.push('danceable');
  if (targets.acousticness !== undefined) parts.push(f.acousticness >= 0.5 ? 'acoustic' : 'electronic');
  if (targets.vocals !== undefined) parts.push(calibration.vocals(f) < 0.5 ? 'no vocals' : 'vocals');
  if (query.genres.length > 0 && song.genre) parts.push(song.genre);
  if (query.years && song.year) parts.push(`from ${song.year}`);
  if (query.artists.length > 0 && song.artist) parts.push(`by ${song.artist}`);
  const lyric = lyricsMatch(query, song);
  if (lyric) parts.push(`lyrics mention “${lyric}”`);
  if (parts.length === 0) parts.push(`${Math.round(f.bpm)} BPM`, `${f.key} ${f.mode}`, `${f.energyLevel} energy`);
  return parts.slice(0, 5).join(', ');
}

/** Same song twice (another upload, another format): same title and artist. */
function identity(song: Candidate): string {
  return `${normalise(song.title ?? song.displayName)}|${normalise(song.artist ?? '')}`;
}

export interface RankOptions {
  /** Used when the prompt has no target at all: a varied mix, in a random order. */
  random?: () => number;
}

/**
 * Filters, scores, dedupes and picks the playlist: at most ⌈size/5⌉ (at least 2) songs per
 * artist unless the prompt asked for artists, then orders it so the energy flows.
 */
export function rankSongs(query: PromptQuery, candidates: Candidate[], options: RankOptions = {}): RankedSong[] {
  const random = options.random ?? Math.random;
  const hasTargets = Object.keys(query.targets).length > 0 || query.tempo !== undefined || query.lyrics.length > 0;
  // Against the whole analysed library, before the prompt's filters narrow it.
  const calibration = calibrate(candidates);
  const scored = candidates
    .filter((song) => passesFilters(query, song))
    .map((song) => ({ song, score: hasTargets ? scoreSong(query, song, calibration) : 0.5 + random() * 0.5 }))
    .filter((entry) => !hasTargets || entry.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.song.id - b.song.id);
  const best = scored[0]?.score ?? 0;
  const sized = query.count !== undefined || query.minutes !== undefined;
  const kept = hasTargets && !sized ? scored.filter((entry, index) => index < MIN_CLOSE_SONGS || entry.score >= best - SCORE_MARGIN) : scored;

  const size = Math.min(AI_PLAYLIST_SIZE_MAX, query.count ?? (query.minutes ? AI_PLAYLIST_SIZE_MAX : AI_PLAYLIST_SIZE_DEFAULT));
  const perArtist = query.artists.length > 0 ? Infinity : Math.max(2, Math.ceil(size / 5));
  const seen = new Set<string>();
  const artists = new Map<string, number>();
  const chosen: typeof kept = [];
  const skipped: typeof kept = [];
  let seconds = 0;
  const full = () => chosen.length >= size || (query.minutes !== undefined && seconds >= query.minutes * 60);
  for (const entry of kept) {
    if (full()) break;
    const id = identity(entry.song);
    if (seen.has(id)) continue;
    seen.add(id);
    const artist = normalise(entry.song.artist ?? '');
    if (artist && (artists.get(artist) ?? 0) >= perArtist) {
      skipped.push(entry);
      continue;
    }
    artists.set(artist, (artists.get(artist) ?? 0) + 1);
    chosen.push(entry);
    seconds += entry.song.durationSeconds ?? ASSUMED_SONG_SECONDS;
  }
  // Too few artists for the variety rule: the best of the rest fill the playlist.
  for (const entry of skipped) {
    if (full()) break;
    chosen.push(entry);
    seconds += entry.song.durationSeconds ?? ASSUMED_SONG_SECONDS;
  }
  return orderByFlow(
    chosen.map((entry) => ({ candidate: entry.song, score: entry.score, reason: reasonFor(query, entry.song, calibration) })),
    query.flow,
  );
}

/**
 * wind-down: energy falls all along (sleep); build-up: rises (a workout); arc: starts in the
 * middle, rises to a peak two thirds in, and comes down at the end.
 */
export function orderByFlow<T extends { candidate: { features: SongFeatures } }>(songs: T[], flow: PromptQuery['flow']): T[] {
  const byEnergy = [...songs].sort((a, b) => a.candidate.features.energy - b.candidate.features.energy);
  if (flow === 'wind-down') return byEnergy.reverse();
  if (flow === 'build-up') return byEnergy;
  // Arc: the quietest third at the end (descending), the rest rising to the peak.
  const tail = Math.floor(byEnergy.length / 3);
  const calmest = byEnergy.slice(0, tail);
  const rising = byEnergy.slice(tail);
  return [...rising, ...calmest.reverse()];
}

/** Euclidean distance of two feature vectors. */
export function vectorDistance(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}
