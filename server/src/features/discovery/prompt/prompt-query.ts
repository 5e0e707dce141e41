import { z } from 'zod';

/**
 * The structured query a prompt becomes, whoever parses it (the embedded parser or an LLM):
 * targets on analysed features and filters on tags and lyrics. It names no song: only songs
 * of the library can ever be chosen.
 */

export const TARGET_FEATURES = ['energy', 'danceability', 'brightness', 'acousticness', 'vocals', 'major', 'loudness'] as const;
export type TargetFeature = (typeof TARGET_FEATURES)[number];

const unit = z.number().min(0).max(1);
const name = z.string().trim().min(1).max(100);
const names = z.array(name).max(20).default([]);

export const promptQuery = z.object({
  /** Recognised words, for the description ("calm, sleeping"). */
  terms: z.array(z.string().max(60)).max(30).default([]),
  /** Feature → wanted value 0..1. */
  targets: z.partialRecord(z.enum(TARGET_FEATURES), unit).default({}),
  /** Tempo range in BPM. */
  tempo: z.object({ min: z.number().min(20).max(300).optional(), max: z.number().min(20).max(300).optional() }).optional(),
  genres: names,
  excludeGenres: names,
  artists: names,
  excludeArtists: names,
  albums: names,
  years: z.object({ from: z.number().int().min(1000).max(3000), to: z.number().int().min(1000).max(3000) }).optional(),
  /** Languages of the lyrics (English names: 'hebrew', 'english'...). */
  languages: z.array(z.string().trim().toLowerCase().max(30)).max(5).default([]),
  /** Words the lyrics should contain ("songs about rain"). */
  lyrics: z.array(z.string().trim().toLowerCase().min(2).max(40)).max(10).default([]),
  /** true: without vocals; false: with vocals. */
  instrumental: z.boolean().optional(),
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
    query.languages.length + query.lyrics.length === 0 &&
    query.instrumental === undefined
  );
}
