import { PLAYLIST_DESCRIPTION_MAX, PLAYLIST_NAME_MAX } from '@encore/common/playlists.contract';
import { HEBREW_WORDS, MOODS, NEGATIONS, SCOPE_ENDS, WORDS } from './prompt/lexicon.js';
import { STOP_WORDS } from './prompt/parse-prompt.js';
import type { PromptQuery } from './prompt/prompt-query.js';
import { correctTypo, isHebrew } from './prompt/word-forms.js';

/** A name is a short title: at most this many words. */
export const NAME_WORDS = 5;

/** Phrases that name better in one word ("without vocals" → "Instrumental"), in English and Hebrew. */
const RENAMES: [RegExp, string][] = [
  [/\b(?:without|no) (?:vocals|singing|voice|lyrics|words)\b|\binstrumentals?(?: tracks| songs| music)?\b/gu, 'instrumental'],
  [/\b(?:to )?(?:fall(?:ing)? )?asleep(?: to)?\b|\bto sleep\b/gu, 'sleep'],
  [/\b(?:an?|one|two|three|\d+(?:\.\d+)?) (?:hours?|hrs?|minutes?|mins?)(?: of)?\b|\bhalf an? hour(?: of)?\b/gu, ' '],
  [/\b(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|couple|few)\b(?= (?:[\p{L}-]+ ){0,2}(?:songs?|tracks?|tunes)\b)/gu, ' '],
  [/בלי שירה|ללא שירה|בלי מילים|ללא מילים/gu, 'אינסטרומנטלי'],
];

/** Filler of a request that a title leaves out. */
const FILLER = new Set([
  ...STOP_WORDS,
  'i',
  'we',
  'you',
  'us',
  'can',
  'could',
  'would',
  'should',
  'let',
  "let's",
  'lets',
  'be',
  'are',
  'was',
  'so',
  'but',
  'just',
  'also',
  'like',
  'good',
  'great',
  'nice',
  'best',
  'list',
  'mix',
  'by',
  'from',
  'up',
  'get',
  'put',
  'together',
  'create',
  'generate',
  'find',
  'show',
  'help',
  'keep',
  'all',
  'any',
  'lots',
  'bunch',
  'few',
  'only',
  'אני',
  'לי',
  'תן',
  'תני',
  'בבקשה',
  'קצת',
  'כמה',
  'רק',
  'גם',
  'שלי',
  'library',
  'collection',
  'own',
  'uploaded',
  'tracks',
]);

const KNOWN_WORDS = [...Object.keys(MOODS), ...Object.keys(WORDS), ...Object.keys(HEBREW_WORDS)];

/**
 * The playlist's name: a short title of the prompt's own words, in its language ("upbeat songs
 * for a morning run" → "Upbeat Morning Run", "something calm to fall asleep to" → "Calm Sleep"),
 * at most five words, typos corrected, negated wishes left out ("so I don't fall asleep").
 */
export function namePlaylist(prompt: string): string {
  let text = prompt.toLowerCase().replace(/[’‘`´]/gu, "'");
  for (const [pattern, replacement] of RENAMES) text = text.replace(pattern, ` ${replacement} `);
  const words: string[] = [];
  const unwanted: string[] = [];
  let negated = 0;
  for (const raw of text.split(/[\s,;:!?()"“”.]+/u)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, '');
    if (!word) continue;
    if (NEGATIONS.has(word)) {
      negated = 3;
      continue;
    }
    if (SCOPE_ENDS.has(word)) negated = 0;
    if (negated > 0) {
      negated--;
      if (!FILLER.has(word)) unwanted.push(word);
      continue;
    }
    if (FILLER.has(word) || (/^\p{L}$/u.test(word) && !isHebrew(word))) continue;
    // Hebrew prefixes ("לריכוז") are no typos: only other words are corrected.
    const corrected = /^\p{L}+$/u.test(word) && !isHebrew(word) ? (correctTypo(word, KNOWN_WORDS) ?? word) : word;
    if (!words.includes(corrected)) words.push(corrected);
    if (words.length >= NAME_WORDS) break;
  }
  // Only unwanted things ("no rock"): the title says so.
  if (words.length === 0 && unwanted.length > 0)
    return isHebrew(prompt) ? `בלי ${unwanted.slice(0, 3).join(' ')}` : `No ${unwanted.slice(0, 3).map(titleCase).join(' ')}`;
  if (words.length === 0) return isHebrew(prompt) ? 'מיקס' : 'Mix';
  const name = words.map((word) => (isHebrew(word) ? word : titleCase(word))).join(' ');
  return name.length > PLAYLIST_NAME_MAX ? `${name.slice(0, PLAYLIST_NAME_MAX - 1)}…` : name;
}

function titleCase(word: string): string {
  if (/^\d+s$/u.test(word)) return word; // "80s"
  return word.replace(/(^|[-'])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()).replace(/'S\b/gu, "'s");
}

/** Whose songs a playlist holds, as its description says it. */
export type PlaylistSource = 'library' | 'favourites' | 'collection';

const SOURCES: Record<PlaylistSource, string> = {
  library: 'From your library',
  favourites: 'From your songs and favourites',
  collection: 'From the collection',
};

/**
 * The description: whose songs (only "From your library" when every song is the caller's own;
 * the collection is shared), what Encore understood, and what it could not apply. It repeats
 * neither the prompt nor the size: the playlist shows both apart.
 */
export function describePlaylist(query: Pick<PromptQuery, 'terms'>, source: PlaylistSource, notes: readonly string[] = []): string {
  const understood = query.terms.length > 0 ? ` Matched on: ${[...new Set(query.terms)].slice(0, 12).join(', ')}.` : '';
  const said = notes.map((note) => ` ${note}.`).join('');
  const text = `${SOURCES[source]}.${understood}${said}`;
  return text.length > PLAYLIST_DESCRIPTION_MAX ? `${text.slice(0, PLAYLIST_DESCRIPTION_MAX - 1)}…` : text;
}
