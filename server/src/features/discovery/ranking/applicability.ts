import type { Candidate } from '../discovery.repository.js';
import type { PromptQuery } from '../prompt/prompt-query.js';
import { themeOf } from './rank.js';

/**
 * A filter on what the library barely knows cannot be applied: with lyrics known for few songs,
 * a theme that none of them has says nothing of the others; with few years known, "nostalgic"
 * cannot find the oldest part. The query without what cannot be applied, and what the
 * description should say about it (also when it was applied on little).
 */
export function applicableQuery(query: PromptQuery, candidates: readonly Candidate[]): { query: PromptQuery; notes: string[] } {
  const notes: string[] = [];
  const total = candidates.length;
  let applied = query;
  const withLyrics = candidates.filter((song) => !!song.transcript && song.transcript.trim().length > 0).length;
  const fewLyrics = withLyrics < total / 2;
  const quoted = (themes: readonly string[]) => themes.map((theme) => `“${theme}”`).join(' or ');
  // A theme of several words none of the songs has all of ("going back home"): its last word,
  // the thing it is about ("home"), when some songs have that.
  if (query.lyrics.length > 0 && !candidates.some((song) => themeOf(query.lyrics, song) !== undefined)) {
    const heads = query.lyrics.map((theme) => theme.split(' ').at(-1)!).filter((head, index) => head !== query.lyrics[index]);
    if (heads.length > 0 && candidates.some((song) => themeOf(heads, song) !== undefined)) applied = { ...applied, lyrics: heads };
  }
  if (applied.lyrics.length > 0 && fewLyrics) {
    const matching = candidates.some((song) => themeOf(applied.lyrics, song) !== undefined);
    if (matching) notes.push(`Lyrics are known for only ${withLyrics} of ${total} songs, so songs about ${quoted(applied.lyrics)} may be missing`);
    else {
      notes.push(`Songs about ${quoted(applied.lyrics)} could not be chosen: lyrics are known for only ${withLyrics} of ${total} songs`);
      applied = { ...applied, lyrics: [] };
    }
  }
  if (query.preferLyrics.length > 0 && fewLyrics) {
    notes.push(`Lyrics are known for only ${withLyrics} of ${total} songs, so love songs are found by their sound`);
  }
  if (query.era) {
    const withYear = candidates.filter((song) => song.year !== null).length;
    if (withYear < total / 2) {
      notes.push(`Years are known for only ${withYear} of ${total} songs, so the ${query.era === 'oldest' ? 'oldest' : 'newest'} songs could not be chosen`);
      applied = { ...applied, era: undefined };
    }
  }
  for (const genre of query.missingGenres) notes.push(`No song is tagged ${genre}: these sound like it`);
  return { query: applied, notes };
}
