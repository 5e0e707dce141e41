import { z } from 'zod';

/**
 * The structured query a prompt becomes, whoever parses it (the embedded parser or an LLM):
 * targets on analysed features and filters on tags and lyrics. It names no song: only songs
 * of the library can ever be chosen.
 */

/**
 * Targets, each 0..1. `tempo` is the song's perceived tempo against the library's own range
 * (0 its slowest, 1 its fastest), as `energy` and `loudness` are read against the library too:
 * "fast" is the fast end of whatever tempo range the library has.
 */
export const TARGET_FEATURES = ['energy', 'danceability', 'brightness', 'acousticness', 'vocals', 'major', 'loudness', 'tempo'] as const;
export type TargetFeature = (typeof TARGET_FEATURES)[number];

const unit = z.number().min(0).max(1);
const name = z.string().trim().min(1).max(100);
const names = z.array(name).max(20).default([]);
/** A theme: one or more words, all of which the lyrics must have ("leaving home"), each in any close form. */
const theme = z.string().trim().toLowerCase().min(2).max(60);

export const promptQuery = z.object({
  /** Recognised words, for the description ("calm, sleeping"). */
  terms: z.array(z.string().max(60)).max(30).default([]),
  /** Feature → wanted value 0..1. */
  targets: z.partialRecord(z.enum(TARGET_FEATURES), unit).default({}),
  /** A tempo range in BPM, when the prompt gives one in numbers ("over 140 bpm"). */
  tempo: z.object({ min: z.number().min(20).max(300).optional(), max: z.number().min(20).max(300).optional() }).optional(),
  genres: names,
  excludeGenres: names,
  artists: names,
  excludeArtists: names,
  albums: names,
  years: z.object({ from: z.number().int().min(1000).max(3000), to: z.number().int().min(1000).max(3000) }).optional(),
  /** The oldest or the newest part of the library, by its own years ("nostalgic", "new songs"). */
  era: z.enum(['oldest', 'newest']).optional(),
  /** Languages of the lyrics (English names: 'hebrew', 'english'...). */
  languages: z.array(z.string().trim().toLowerCase().max(30)).max(5).default([]),
  /** Themes the lyrics must have ("songs about the sea"): a song has one of them or is left out. */
  lyrics: z.array(theme).max(10).default([]),
  /** Themes that rank a song first without leaving the others out ("romantic": love in the lyrics). */
  preferLyrics: z.array(theme).max(10).default([]),
  /** true: without vocals; false: with vocals. */
  instrumental: z.boolean().optional(),
  /** Whose songs: the caller's own and liked ones ("my songs"), or their favourites only. */
  scope: z.enum(['mine', 'favourites']).optional(),
  /** Genres the prompt named that no song of the library is tagged with (the description says so). */
  missingGenres: z.array(name).max(10).default([]),
  /** Playlist size: a number of songs or of minutes. */
  count: z.number().int().min(1).max(100).optional(),
  minutes: z.number().min(1).max(600).optional(),
  /** The order: an arc that rises then falls, winding down (sleep), or building up (workout). */
  flow: z.enum(['arc', 'wind-down', 'build-up']).default('arc'),
});
export type PromptQuery = z.infer<typeof promptQuery>;

export function emptyQuery(): PromptQuery {
  return promptQuery.parse({});
}

/** True when the query says nothing (a prompt of unknown words). */
export function isEmptyQuery(query: PromptQuery): boolean {
  return (
    Object.keys(query.targets).length === 0 &&
    !query.tempo &&
    query.genres.length + query.excludeGenres.length + query.artists.length + query.excludeArtists.length + query.albums.length === 0 &&
    !query.years &&
    !query.era &&
    !query.scope &&
    query.languages.length + query.lyrics.length + query.preferLyrics.length === 0 &&
    query.instrumental === undefined
  );
}
