import type { PromptQuery, TargetFeature } from '../prompt/prompt-query.js';

/**
 * The LLM's query made to agree with the embedded reading of the same prompt. What the rules
 * read for certain (words Encore knows: moods on all their dimensions, activities, negations,
 * themes, "nostalgic", "romantic", "my", sizes, decades, genres, voice) is kept as the rules
 * read it; the model adds what the rules did not understand (words Encore does not know).
 * So a prompt gets the same answer with or without an LLM wherever the rules understand it.
 */
export function agreeWithEmbedded(llm: PromptQuery, embedded: PromptQuery): PromptQuery {
  const targets: PromptQuery['targets'] = { ...llm.targets };
  for (const [feature, value] of Object.entries(embedded.targets) as [TargetFeature, number][]) targets[feature] = value;
  // A tempo the rules read as the library's fast or slow end replaces a BPM range the model guessed.
  const tempo = embedded.tempo ?? (embedded.targets.tempo !== undefined ? undefined : llm.tempo);
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  const excludeGenres = union(embedded.excludeGenres, llm.excludeGenres);
  const excludeArtists = union(embedded.excludeArtists, llm.excludeArtists);
  return {
    terms: union(embedded.terms, llm.terms).slice(0, 30),
    targets,
    tempo,
    genres: (embedded.genres.length > 0 ? embedded.genres : llm.genres).filter((genre) => !excludeGenres.includes(genre)),
    excludeGenres,
    artists: (embedded.artists.length > 0 ? embedded.artists : llm.artists).filter((artist) => !excludeArtists.includes(artist)),
    excludeArtists,
    albums: embedded.albums.length > 0 ? embedded.albums : llm.albums,
    years: embedded.years ?? llm.years,
    era: embedded.era ?? llm.era,
    languages: embedded.languages.length > 0 ? embedded.languages : llm.languages,
    lyrics: embedded.lyrics.length > 0 ? embedded.lyrics : llm.lyrics,
    preferLyrics: embedded.preferLyrics.length > 0 ? embedded.preferLyrics : llm.preferLyrics,
    instrumental: embedded.instrumental ?? llm.instrumental,
    scope: embedded.scope ?? llm.scope,
    missingGenres: union(embedded.missingGenres, llm.missingGenres),
    count: embedded.count ?? llm.count,
    minutes: embedded.minutes ?? llm.minutes,
    flow: embedded.flow !== 'arc' ? embedded.flow : llm.flow,
  };
}
