import type { SongFeatures } from '@encore/common/analysis.contract';
import { AI_PLAYLIST_SIZE_DEFAULT, AI_PLAYLIST_SIZE_MAX } from '@encore/common/discovery.contract';
import type { Candidate } from '../discovery.repository.js';
import { normalise, normaliseGenre } from '../prompt/parse-prompt.js';
import type { PromptQuery, TargetFeature } from '../prompt/prompt-query.js';
import { hasTheme, textStems } from '../prompt/word-forms.js';
import { calibrate, loudnessScale, RAW, type Calibration } from './calibration.js';
import { detectLanguage } from './language.js';
import { tempoReadings, tempoWord } from './tempo.js';

export { calibrate, CALIBRATION_FULL_AT, type Calibration } from './calibration.js';

export interface RankedSong {
  candidate: Candidate;
  score: number;
  reason: string;
  /** Not an answer to the prompt but among the songs nearest it (see `fillWithNearest`). */
  nearest?: boolean;
}

/** Below this a song answers the prompt too poorly to be offered (no duds), unless it meets a preference of the prompt. */
export const MIN_SCORE = 0.6;
/**
 * Without a size in the prompt, songs this far below the best answer (or below its tier) are
 * left out once `MIN_CLOSE_SONGS` remain: a calm playlist is the calm songs, not padded with
 * quiet fast ones that half-answer it.
 */
export const SCORE_MARGIN = 0.15;
export const MIN_CLOSE_SONGS = 10;
/** The first this many songs are the best answers; the energy-flow order arranges them among themselves. */
export const HEAD_SIZE = 10;
const ASSUMED_SONG_SECONDS = 210;
/** A song has a voice from this vocal probability on (the detector's decision point). */
export const VOICE_THRESHOLD = 0.5;

// How much each dimension counts when a prompt asks for several.
const WEIGHTS: Record<TargetFeature, number> = {
  energy: 1.5,
  loudness: 1,
  tempo: 1.3,
  major: 1.5,
  brightness: 0.6,
  vocals: 0.8,
  danceability: 0.6,
  acousticness: 0.6,
};
/** A difference of 2/3 of the scale (or more) scores nothing: "calm" is not half-answered by a loud song. */
/** Below this closeness on energy or loudness, asked at an end of the scale, a song is vetoed (see scoreSong). */
const VETO_FIT = 1 / 3;
const closeness = (difference: number) => 1 - Math.min(1, Math.abs(difference) * 1.5);

/**
 * How far a value misses its target. A target near an end of the scale asks for "at least" or
 * "at most" that much: for "bright" the brightest song is no worse than one at the target.
 */
function beyond(value: number, wanted: number): number {
  if (wanted >= 0.75 && value >= wanted) return 0;
  if (wanted <= 0.25 && value <= wanted) return 0;
  return value - wanted;
}

function featureValue(feature: Exclude<TargetFeature, 'tempo'>, f: SongFeatures, calibration: Calibration): number {
  switch (feature) {
    case 'energy':
      return calibration.energy(f);
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
      return calibration.loudness(f);
  }
}

/** Filters on tags, lyrics' themes and language: a song failing one is not a candidate at all. */
export function passesFilters(query: PromptQuery, song: Candidate): boolean {
  const genre = song.genre ? ` ${normaliseGenre(song.genre)} ` : '';
  if (query.genres.length > 0 && !query.genres.some((wanted) => genre.includes(` ${normaliseGenre(wanted)} `))) return false;
  if (query.excludeGenres.some((unwanted) => genre.includes(` ${normaliseGenre(unwanted)} `))) return false;
  const artist = song.artist ? normalise(song.artist) : '';
  if (query.artists.length > 0 && !query.artists.some((wanted) => artist === normalise(wanted))) return false;
  if (query.excludeArtists.some((unwanted) => artist === normalise(unwanted))) return false;
  if (query.albums.length > 0 && !query.albums.some((wanted) => song.album !== null && normalise(song.album) === normalise(wanted))) return false;
  if (query.years && (song.year === null || song.year < query.years.from || song.year > query.years.to)) return false;
  if (query.languages.length > 0 && !query.languages.includes(detectLanguage(song.transcript) ?? '')) return false;
  if (query.lyrics.length > 0 && themeOf(query.lyrics, song) === undefined) return false;
  return true;
}

const stemsCache = new WeakMap<Candidate, Set<string>>();
function lyricStems(song: Candidate): Set<string> | undefined {
  if (!song.transcript) return undefined;
  let stems = stemsCache.get(song);
  if (!stems) {
    stems = textStems(song.transcript);
    stemsCache.set(song, stems);
  }
  return stems;
}

/** The first of these themes the song's lyrics have (by words and their close forms), if any. */
export function themeOf(themes: readonly string[], song: Candidate): string | undefined {
  const stems = lyricStems(song);
  return stems ? themes.find((theme) => hasTheme(stems, theme)) : undefined;
}

/** How well an explicit BPM range fits one tempo reading, 0..1. */
function rangeFit(bpm: number, range: NonNullable<PromptQuery['tempo']>): number {
  const below = range.min !== undefined ? Math.max(0, range.min - bpm) : 0;
  const above = range.max !== undefined ? Math.max(0, bpm - range.max) : 0;
  return Math.max(0, 1 - (below + above) / 30);
}

/**
 * How well a song sounds like the query's targets, 0..1 (1 when the query has none). A song
 * whose tempo is ambiguous (x or 2x) answers a tempo wish by its worse reading.
 */
export function scoreSong(query: PromptQuery, song: Candidate, calibration: Calibration = RAW): number {
  let weighted = 0;
  let weights = 0;
  const readings = tempoReadings(song.features);
  for (const [feature, wanted] of Object.entries(query.targets) as [TargetFeature, number][]) {
    // Voice is the prompt's preference (instrumentals first), not a shade of the sound.
    if (feature === 'vocals' && query.instrumental !== undefined) continue;
    const fit =
      feature === 'tempo'
        ? Math.min(...readings.map((bpm) => closeness(beyond(calibration.tempo(bpm), wanted))))
        : closeness(beyond(featureValue(feature, song.features, calibration), wanted));
    // A song far (more than 4/9 of the scale) from an extreme wish on how hard it plays is no
    // answer, however well it fits the rest: a loud song never answers "quiet" or "sleep".
    if (fit < VETO_FIT && (feature === 'energy' || feature === 'loudness') && (wanted <= 0.25 || wanted >= 0.75)) return 0;
    weighted += WEIGHTS[feature] * fit;
    weights += WEIGHTS[feature];
  }
  if (query.tempo) {
    weighted += 1.5 * Math.min(...readings.map((bpm) => rangeFit(bpm, query.tempo!)));
    weights += 1.5;
  }
  return weights > 0 ? weighted / weights : 1;
}

/**
 * The prompt's preferences a song meets, which rank it before every song meeting fewer: its
 * voice (instrumental or sung), love in the lyrics ("romantic"), the oldest or newest part of
 * the library by year ("nostalgic").
 */
export function tierOf(query: PromptQuery, song: Candidate, calibration: Calibration = RAW): number {
  let tier = 0;
  if (query.instrumental !== undefined) {
    const voiced = calibration.vocals(song.features) >= VOICE_THRESHOLD;
    if (voiced !== query.instrumental) tier++;
  }
  if (query.preferLyrics.length > 0 && themeOf(query.preferLyrics, song) !== undefined) tier++;
  if (query.era && song.year !== null && calibration.inEra(song.year, query.era)) tier++;
  return tier;
}

/** The short reason a song was chosen: what the prompt asked, as the song has it. */
export function reasonFor(query: PromptQuery, song: Candidate, calibration: Calibration = RAW): string {
  const f = song.features;
  const parts: string[] = [];
  const targets = query.targets;
  const theme = themeOf(query.lyrics, song) ?? themeOf(query.preferLyrics, song);
  if (theme) parts.push(`lyrics about “${theme}”`);
  if (query.era && song.year !== null) parts.push(`from ${song.year}`);
  if (query.instrumental !== undefined || targets.vocals !== undefined) {
    const p = calibration.vocals(f);
    const sure = (f as SongFeatures & { vocalConfidence?: number }).vocalConfidence ?? 0.5;
    if (p < VOICE_THRESHOLD && sure >= 0.3) parts.push('no vocals');
    else if (p >= VOICE_THRESHOLD && sure >= 0.3) parts.push('vocals');
  }
  if (query.tempo || targets.tempo !== undefined || targets.energy !== undefined) {
    const readings = tempoReadings(f);
    const word = tempoWord(readings);
    // An ambiguous tempo (x or 2x) is not named: a slow song is never called fast.
    if (readings.length === 1) parts.push(word ? `${word} (${Math.round(readings[0]!)} BPM)` : `${Math.round(readings[0]!)} BPM`);
  }
  if (targets.energy !== undefined) parts.push(`${f.energyLevel} energy`);
  if (targets.loudness !== undefined && loudnessScale(f) < 0.35) parts.push('quiet');
  if (targets.loudness !== undefined && loudnessScale(f) > 0.7) parts.push('loud');
  const brightness = calibration.brightness(f);
  if (targets.brightness !== undefined) parts.push(brightness >= 0.6 ? 'bright' : brightness <= 0.35 ? 'dark, warm sound' : 'balanced sound');
  if (targets.major !== undefined) parts.push(`${f.mode} key`);
  if (targets.danceability !== undefined && f.danceability >= 0.6) parts.push('danceable');
  if (targets.acousticness !== undefined) parts.push(f.acousticness >= 0.5 ? 'acoustic' : 'electronic');
  if (query.genres.length > 0 && song.genre) parts.push(song.genre);
  if (query.years && song.year && !query.era) parts.push(`from ${song.year}`);
  if (query.artists.length > 0 && song.artist) parts.push(`by ${song.artist}`);
  if (parts.length === 0) {
    const readings = tempoReadings(f);
    if (readings.length === 1) parts.push(`${Math.round(readings[0]!)} BPM`);
    parts.push(`${f.key} ${f.mode}`, `${f.energyLevel} energy`);
  }
  return parts.slice(0, 5).join(', ');
}

/** Same song twice (another upload, another format): same title and artist. */
function identity(song: Candidate): string {
  return `${normalise(song.title ?? song.displayName)}|${normalise(song.artist ?? '')}`;
}

export interface RankOptions {
  /** Used when the prompt has no target at all: a varied mix, in a random order. */
  random?: () => number;
  /** Only these songs may be chosen (the caller's own and liked ones, for "my songs"). */
  allowed?: ReadonlySet<number>;
}

interface Scored {
  song: Candidate;
  score: number;
  tier: number;
  /** Orders songs of the same tier and score: older first for "nostalgic", less voice first for "instrumental". */
  tiebreak: number;
}

/**
 * Filters, scores, dedupes and picks the playlist: the songs meeting most of the prompt's
 * preferences first, then by how well they sound like it; at most ⌈size/5⌉ (at least 2) songs
 * per artist unless the prompt asked for artists. The first ten are the ten best answers: the
 * energy flow orders them among themselves, and the rest after them.
 */
export function rankSongs(query: PromptQuery, candidates: Candidate[], options: RankOptions = {}): RankedSong[] {
  const random = options.random ?? Math.random;
  const hasTargets = Object.keys(query.targets).length > 0 || query.tempo !== undefined;
  const hasWish = hasTargets || query.lyrics.length + query.preferLyrics.length > 0 || query.era !== undefined || query.instrumental !== undefined;
  // Against the whole analysed library, before the prompt's filters narrow it.
  const calibration = calibrate(candidates);
  const scored: Scored[] = candidates
    .filter((song) => (!options.allowed || options.allowed.has(song.id)) && passesFilters(query, song))
    .map((song) => ({
      song,
      score: hasWish ? scoreSong(query, song, calibration) : 0.5 + random() * 0.5,
      tier: tierOf(query, song, calibration),
      tiebreak: tiebreakOf(query, song, calibration),
    }))
    .filter((entry) => !hasTargets || entry.score >= MIN_SCORE || entry.tier > 0)
    .sort((a, b) => b.tier - a.tier || b.score - a.score || a.tiebreak - b.tiebreak || a.song.id - b.song.id);

  const sized = query.count !== undefined || query.minutes !== undefined;
  const top = scored[0];
  const kept =
    hasWish && !sized && top
      ? scored.filter((entry, index) => index < MIN_CLOSE_SONGS || (entry.tier === top.tier && entry.score >= top.score - SCORE_MARGIN))
      : scored;
  const chosen = pick(kept, query);
  const ranked = chosen.map((entry) => ({ candidate: entry.song, score: entry.score, reason: reasonFor(query, entry.song, calibration) }));
  // An era asked without a flow plays in rank order: the oldest (or newest) first.
  const arrange = <T extends { candidate: { features: SongFeatures } }>(songs: T[]) =>
    query.era && query.flow === 'arc' ? songs : orderByFlow(songs, query.flow);
  return [...arrange(ranked.slice(0, HEAD_SIZE)), ...arrange(ranked.slice(HEAD_SIZE))];
}

/** How a nearest song's reason begins: it says the song is near the prompt, not an answer to it. */
export const NEAREST_REASON_PREFIX = 'nearest: ';

/**
 * When too few songs answer the prompt (fewer than it asks for, or than `MIN_CLOSE_SONGS`), the
 * songs nearest it after them, each marked and with its honest reason: a short playlist of near
 * songs beats an empty answer. Only songs that fit at all are near: they pass the prompt's
 * filters (genre, artist, years, lyrics, language, "my songs") and sit on the asked side of an
 * extreme wish on how hard the music plays (a loud song is never near "sleep").
 */
export function fillWithNearest(query: PromptQuery, candidates: Candidate[], ranked: RankedSong[], options: RankOptions = {}): RankedSong[] {
  const wanted = Math.min(AI_PLAYLIST_SIZE_MAX, query.count ?? MIN_CLOSE_SONGS);
  if (ranked.length >= wanted) return ranked;
  const calibration = calibrate(candidates);
  const taken = new Set(ranked.map((entry) => identity(entry.candidate)));
  const near = candidates
    .filter((song) => (!options.allowed || options.allowed.has(song.id)) && passesFilters(query, song) && !taken.has(identity(song)))
    .filter((song) => nearOnHowHard(query, song, calibration))
    .map((song) => ({ song, score: scoreSong(query, song, calibration), tier: tierOf(query, song, calibration) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.tier - a.tier || b.score - a.score || a.song.id - b.song.id);
  const filled = [...ranked];
  for (const entry of near) {
    if (filled.length >= wanted) break;
    const id = identity(entry.song);
    if (taken.has(id)) continue;
    taken.add(id);
    filled.push({
      candidate: entry.song,
      score: entry.score,
      reason: `${NEAREST_REASON_PREFIX}${reasonFor(query, entry.song, calibration)}`,
      nearest: true,
    });
  }
  return filled;
}

/** The closeness a near song keeps to an extreme wish on energy or loudness: the asked half of the scale. */
const NEAR_FIT = 0.5;

function nearOnHowHard(query: PromptQuery, song: Candidate, calibration: Calibration): boolean {
  return (['energy', 'loudness'] as const).every((feature) => {
    const wanted = query.targets[feature];
    if (wanted === undefined || (wanted > 0.25 && wanted < 0.75)) return true;
    return closeness(beyond(featureValue(feature, song.features, calibration), wanted)) >= NEAR_FIT;
  });
}

/**
 * Why no song can be offered at all, in words ("no song is tagged jazz"): the filter that alone
 * leaves nothing, else their combination, else the wish on how hard the music plays that every
 * song misses.
 */
export function whyNothingMatches(query: PromptQuery, candidates: Candidate[], options: RankOptions = {}): string {
  const pool = candidates.filter((song) => !options.allowed || options.allowed.has(song.id));
  if (pool.length === 0) return 'none of the songs it may choose from is analysed yet';
  const none = (only: Partial<PromptQuery>) => {
    const probe: PromptQuery = { ...query, ...EMPTY_FILTERS, ...only };
    if (!only.years) delete probe.years;
    return !pool.some((song) => passesFilters(probe, song));
  };
  const list = (names: readonly string[]) => names.join(' or ');
  const reasons: string[] = [];
  if (query.genres.length > 0 && none({ genres: query.genres })) reasons.push(`no song is tagged ${list(query.genres)}`);
  if (query.artists.length > 0 && none({ artists: query.artists })) reasons.push(`no song is by ${list(query.artists)}`);
  if (query.albums.length > 0 && none({ albums: query.albums })) reasons.push(`no song is from the album ${list(query.albums)}`);
  if (query.years && none({ years: query.years })) reasons.push(`no song is from ${yearsInWords(query.years)}`);
  if (query.languages.length > 0 && none({ languages: query.languages })) reasons.push(`no song has lyrics in ${list(query.languages)}`);
  if (query.lyrics.length > 0 && none({ lyrics: query.lyrics }))
    reasons.push(`no song's lyrics are about ${query.lyrics.map((theme) => `“${theme}”`).join(' or ')}`);
  if (query.excludeGenres.length > 0 && none({ excludeGenres: query.excludeGenres })) reasons.push(`every song is tagged ${list(query.excludeGenres)}`);
  if (query.excludeArtists.length > 0 && none({ excludeArtists: query.excludeArtists })) reasons.push(`every song is by ${list(query.excludeArtists)}`);
  if (reasons.length > 0) return reasons.join('; ');
  const passing = pool.filter((song) => passesFilters(query, song));
  if (passing.length === 0) return 'no song meets all of its conditions together';
  const calm = (['energy', 'loudness'] as const).some((feature) => (query.targets[feature] ?? 0.5) <= 0.25);
  return calm ? 'every song that fits it plays too loud or too hard' : 'every song that fits it plays too softly or too gently';
}

function yearsInWords({ from, to }: NonNullable<PromptQuery['years']>): string {
  if (from === to) return `${from}`;
  if (to >= 3000) return `${from} or later`;
  if (from <= 1000) return `${to} or earlier`;
  return `${from}–${to}`;
}

/** A query that filters nothing, for trying the prompt's filters one at a time. */
const EMPTY_FILTERS: Pick<PromptQuery, 'genres' | 'excludeGenres' | 'artists' | 'excludeArtists' | 'albums' | 'languages' | 'lyrics'> = {
  genres: [],
  excludeGenres: [],
  artists: [],
  excludeArtists: [],
  albums: [],
  languages: [],
  lyrics: [],
};

function tiebreakOf(query: PromptQuery, song: Candidate, calibration: Calibration): number {
  if (query.era && song.year !== null) return query.era === 'oldest' ? song.year : -song.year;
  if (query.instrumental === true) return calibration.vocals(song.features);
  if (query.instrumental === false) return -calibration.vocals(song.features);
  return 0;
}

/** The playlist in rank order: one copy of a song, at most ⌈size/5⌉ per artist while others remain, up to the size or the minutes. */
function pick(kept: Scored[], query: PromptQuery): Scored[] {
  const size = Math.min(AI_PLAYLIST_SIZE_MAX, query.count ?? (query.minutes ? AI_PLAYLIST_SIZE_MAX : AI_PLAYLIST_SIZE_DEFAULT));
  const perArtist = query.artists.length > 0 ? Infinity : Math.max(2, Math.ceil(size / 5));
  const seen = new Set<string>();
  const artists = new Map<string, number>();
  const chosen: Scored[] = [];
  const skipped: Scored[] = [];
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
  return chosen;
}

/**
 * wind-down: energy falls all along (sleep), opening with the second most energetic so the
 * loudest never plays first; build-up: rises (a workout); arc: starts in the middle, rises to a
 * peak two thirds in, and comes down at the end.
 */
export function orderByFlow<T extends { candidate: { features: SongFeatures } }>(songs: T[], flow: PromptQuery['flow']): T[] {
  const byEnergy = [...songs].sort((a, b) => a.candidate.features.energy - b.candidate.features.energy);
  if (flow === 'wind-down') {
    const falling = byEnergy.reverse();
    if (falling.length >= 2 && falling[0]!.candidate.features.energy > falling[1]!.candidate.features.energy)
      [falling[0], falling[1]] = [falling[1]!, falling[0]!];
    return falling;
  }
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
