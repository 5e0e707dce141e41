import { z } from 'zod';
import { analysisProgress } from './analysis.contract.js';
import { defineEndpoint } from './endpoint.js';
import { idField, multilineText } from './input.contract.js';
import { song } from './library.contract.js';

// The song's analysis and the analysis progress are in analysis.contract.ts (the library's
// song detail uses them, and this file builds on the library's song).

/**
 * AI playlists (issue 12; SPEC 2, 3, 4, 5, 7, 8, 9): the sonic analysis of a song, the
 * generated playlist, "More like this" and the analysis progress.
 */

/** SPEC 2: the ten mood chips, in the spec's order. Selecting one appends `mood.toLowerCase()`. */
export const AI_MOODS = ['Energetic', 'Relaxing', 'Nostalgic', 'Romantic', 'Melancholic', 'Uplifting', 'Focused', 'Dreamy', 'Intense', 'Peaceful'] as const;
export type AiMood = (typeof AI_MOODS)[number];

/** SPEC 2/9: the five example prompts (SPEC 2 names 'chill coding beats'). */
export const AI_EXAMPLE_PROMPTS = [
  'chill coding beats',
  'something calm to fall asleep to',
  'upbeat songs for a morning run',
  'melancholic songs without vocals',
  'an hour of 80s party music',
] as const;

/** SPEC 9: the web's progress while generating: a tick every 0.8 s, up to ~10 per tick, capped at 95. */
export const AI_PROGRESS_TICK_MS = 800;
export const AI_PROGRESS_STEP_MAX = 10;
export const AI_PROGRESS_CAP = 95;

/** A prompt is a sentence or two; 10 KB of text is refused with a message, not truncated. */
export const AI_PROMPT_MAX = 500;
/** The most songs one generated playlist holds; without a size in the prompt it has the default. */
export const AI_PLAYLIST_SIZE_DEFAULT = 20;
export const AI_PLAYLIST_SIZE_MAX = 100;
export const MORE_LIKE_THIS_SIZE = 20;

/** The texts of AI playlists (SPEC 5 and 8 verbatim where the spec has them). */
export const AI_MESSAGES = {
  promptRequired: 'Please enter a prompt to generate a playlist',
  promptTooLong: `The prompt can be at most ${AI_PROMPT_MAX} characters`,
  generated: 'Playlist generated successfully!',
  failed: 'Failed to generate playlist. Please try again.',
  promptNoWords: 'The prompt has no words Encore can work with. Describe a mood, an activity, a genre or an artist, for example "chill coding beats".',
  libraryEmpty: 'Your library has no songs yet. Upload some music, then try again.',
  nothingAnalysed: 'No song has been analysed yet. Encore is listening to your library; try again in a few minutes.',
  songNotAnalysed: 'This song has not been analysed yet, so Encore cannot find similar songs. Try again in a few minutes.',
  songNotAnalysable: 'This song could not be analysed (its audio cannot be decoded), so Encore cannot find similar songs.',
  noSimilar: 'No other analysed song in your library is similar enough to this one yet.',
} as const;
export type AiMessageKey = keyof typeof AI_MESSAGES;

/** SPEC 7: body `{prompt}`. */
export const generatePlaylistBody = z.object({
  prompt: multilineText('The prompt', AI_MESSAGES.promptRequired)
    .trim()
    .min(1, { error: AI_MESSAGES.promptRequired })
    .max(AI_PROMPT_MAX, { error: AI_MESSAGES.promptTooLong }),
});
export type GeneratePlaylistBody = z.input<typeof generatePlaylistBody>;

/**
 * A chosen song: a full song the player can play, with a short reason ("fast, bright, major key").
 * `nearest` marks a song that does not answer the prompt but is among the nearest to it (when too
 * few songs answer it); its reason starts with "nearest: ".
 */
export const generatedSong = song.extend({ reason: z.string(), nearest: z.literal(true).optional() });
export type GeneratedSong = z.infer<typeof generatedSong>;

/** Which parser turned the prompt into a query: the embedded one, or the configured LLM. */
export const promptInterpreter = z.enum(['embedded', 'llm']);

/**
 * SPEC 3/7's AI result `{id, name, description, songs}`: the playlist as saved among the
 * caller's playlists, plus the prompt, the AI-generated mark and a note when the answer comes
 * from an incomplete analysis ("answered from 412 of 530 analysed songs").
 */
export const generatedPlaylist = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  songs: z.array(generatedSong),
  prompt: z.string(),
  aiGenerated: z.literal(true),
  interpreter: promptInterpreter,
  note: z.string().nullable(),
});
export type GeneratedPlaylist = z.infer<typeof generatedPlaylist>;

/** "More like this": `POST /api/songs/:id/more-like-this` answers a generated playlist. */
export const moreLikeThisParams = z.object({ id: idField('The song id') });

/** When nothing at all can be offered: the message says why ("no song is tagged jazz"). */
export function noMatchMessage(why: string): string {
  return `No song in your library matches this prompt: ${why}. Try fewer conditions or another mood.`;
}

/** The description's note when nearest songs fill a short answer. */
export function nearestNote(answers: number, nearest: number): string {
  const songs = (count: number) => `${count} song${count === 1 ? '' : 's'}`;
  return answers === 0
    ? `No song answers this prompt fully: these are the ${songs(nearest)} nearest to it`
    : `Only ${songs(answers)} answer${answers === 1 ? 's' : ''} this prompt fully; ${nearest === 1 ? 'the next is' : `the next ${nearest} are`} the nearest to it`;
}

export function incompleteAnalysisNote(analysed: number, total: number): string {
  return `answered from ${analysed} of ${total} analysed songs`;
}

/** Documented among the playlists: what they make is a playlist. */
const tags = ['playlists'];

/** AI playlists: generate from a prompt (SPEC 7), More like this, and the analysis progress. */
export const discoveryEndpoints = {
  generate: defineEndpoint({
    method: 'POST',
    path: '/playlists/generate-playlist-by-prompt',
    body: generatePlaylistBody,
    response: generatedPlaylist,
    status: 201,
    summary: "Turns a prompt into a playlist of the caller's library, saved among their playlists (marked AI generated)",
    tags,
  }),
  moreLikeThis: defineEndpoint({
    method: 'POST',
    path: '/songs/:id/more-like-this',
    params: moreLikeThisParams,
    response: generatedPlaylist,
    status: 201,
    summary: 'A playlist of the songs that sound nearest to this one, saved among the caller’s playlists',
    tags,
  }),
  analysisProgress: defineEndpoint({
    method: 'GET',
    path: '/ai/analysis-progress',
    response: analysisProgress,
    summary: 'How much of the library is analysed ("Analysed 412 of 530 songs")',
    tags,
  }),
};
