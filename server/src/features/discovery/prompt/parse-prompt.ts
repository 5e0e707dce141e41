import {
  DECADE_WORDS,
  EMOJI,
  HEBREW_GENRES,
  HEBREW_WORDS,
  KNOWN_GENRES,
  LANGUAGES,
  MOODS,
  NEGATIONS,
  NUMBER_WORDS,
  SCOPE_ENDS,
  WORDS,
  type Effect,
} from './lexicon.js';
import { emptyQuery, type PromptQuery, type TargetFeature } from './prompt-query.js';
import { correctTypo, hebrewWithoutPrefixes, isHebrew } from './word-forms.js';

/** The library's own names, so a prompt can ask for them ("some Radiohead", "no jazz"). */
export interface LibraryVocabulary {
  artists: string[];
  albums: string[];
  genres: string[];
}

/** Words that carry no wish of their own (left out of themes, never typo-read). */
export const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'for',
  'me',
  'my',
  'our',
  'your',
  'his',
  'her',
  'their',
  'some',
  'songs',
  'song',
  'music',
  'tracks',
  'track',
  'tunes',
  'playlist',
  'with',
  'in',
  'on',
  'at',
  'it',
  'is',
  'that',
  'this',
  'things',
  'something',
  'anything',
  'stuff',
  'being',
  'getting',
  'someone',
  'people',
  'please',
  'give',
  'make',
  'play',
  'want',
  'need',
  'really',
  'very',
  'too',
  'more',
  'only',
  'about',
  'while',
  'when',
  'where',
  'there',
  'which',
  'other',
  'those',
  'these',
  'ones',
  'של',
  'את',
  'שירים',
  'שיר',
  'מוזיקה',
  'עם',
  'על',
]);

/** Words that end a theme ("songs about the sea for driving": the theme is the sea). */
const THEME_ENDS = new Set([
  'for',
  'to',
  'with',
  'without',
  'while',
  'when',
  'that',
  'which',
  'from',
  'by',
  'no',
  'not',
  'but',
  'so',
  'please',
  'like',
  'in',
  'at',
  'ל',
  'בשביל',
  'עבור',
  'בלי',
  'ללא',
  'אבל',
]);
/** Words that start a theme: "about", "mention(ing)", Hebrew "על". */
const THEME_STARTS = new Set(['about', 'mention', 'mentions', 'mentioning', 'על']);
/** How many words after a negation it governs, at most (a clause ends it sooner). */
const NEGATION_REACH = 4;

/** Lowercased, with apostrophes unified and everything but letters, digits and a few signs as spaces. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`´]/gu, "'")
    .replace(/[^\p{L}\p{N}&'\-.\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** A genre as compared: lowercased, "hip-hop" as "hip hop". */
export function normaliseGenre(text: string): string {
  return normalise(text).replace(/[-_/]/gu, ' ').replace(/\s+/gu, ' ').trim();
}

/** Like `normalise`, but the ends of clauses (",", ";", "!", "?", a sentence's ".") become "|": a negation reaches no further. */
function clauses(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`´]/gu, "'")
    .replace(/[,;:!?()[\]{}"“”]|\.(?=\s|$)|\s[-–—]\s/gu, ' | ')
    .replace(/[^\p{L}\p{N}&'\-.|\s]/gu, ' ')
    .replace(/\b(?:anything|everything|nothing) (?:but|except)\b|\bother than\b|\bexcept for\b|\bapart from\b|\bחוץ מ/gu, ' except ')
    .replace(/\s+/gu, ' ')
    .trim();
}

type Entry =
  { kind: 'artist' | 'album'; name: string } | { kind: 'genre'; genre: string } | { kind: 'language'; language: string } | { kind: 'word'; effect: Effect };

/**
 * The embedded parser: a prompt to a structured query. Recognises the ten moods and other
 * mood words, activities, tempo and energy words, genres (known ones and the library's tags),
 * decades and years, the oldest or newest part of the library, artists and albums of the
 * library, languages, "without vocals", themes of the lyrics ("about the sea"), the caller's
 * own songs ("my favourites"), negations ("no rock", "not sad", "so I don't fall asleep") and
 * the size ("5 songs", "an hour"). English and Hebrew; a few emoji; typos of one letter in
 * words of five letters or more.
 */
export function parsePrompt(prompt: string, vocabulary: LibraryVocabulary): PromptQuery {
  const query = emptyQuery();
  const sums = new Map<TargetFeature, { total: number; n: number }>();
  let text = ` ${clauses(prompt)} `;
  const consume = (match: string) => {
    text = text.replace(match, ' ');
  };

  readSize(text, query, (match, keep) => (text = text.replace(match, keep)));
  text = readExplicitTempo(text, query);
  const years = parseYears(text);
  if (years) {
    query.years = years.range;
    query.terms.push(years.term);
    consume(years.match);
  }
  text = readScope(text, query);

  const apply = (effect: Effect, negated: boolean, term: string) => {
    const applied = negated ? effect.negated : effect;
    query.terms.push(negated ? `not ${term}` : term);
    if (!applied) return; // "so I don't fall asleep": not wanted, and nothing asked instead
    for (const [feature, value] of Object.entries(applied.targets ?? {}) as [TargetFeature, number][]) {
      const sum = sums.get(feature) ?? { total: 0, n: 0 };
      sums.set(feature, { total: sum.total + value, n: sum.n + 1 });
    }
    if (applied.instrumental !== undefined) query.instrumental = applied.instrumental;
    if (applied.flow) query.flow = applied.flow;
    if (applied.era) query.era = applied.era;
    for (const theme of applied.preferLyrics ?? []) if (!query.preferLyrics.includes(theme)) query.preferLyrics.push(theme);
  };

  const dictionary = buildDictionary(vocabulary);
  const libraryGenres = vocabulary.genres.map(normaliseGenre);
  const tokens = text.split(' ').filter((token) => token.length > 0);
  let reach = 0;
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i]!;
    if (token === '|' || SCOPE_ENDS.has(token)) {
      reach = 0;
      i++;
      continue;
    }
    if (THEME_STARTS.has(token) && reach === 0) {
      const { themes, next } = readThemes(tokens, i + 1, dictionary);
      for (const theme of themes) {
        if (!query.lyrics.includes(theme)) query.lyrics.push(theme);
        query.terms.push(`about ${theme}`);
      }
      if (themes.length > 0) {
        i = next;
        continue;
      }
    }
    const found = lookUp(tokens, i, dictionary);
    if (found) {
      const negated = reach > 0;
      const { entry, length, term } = found;
      if (entry.kind === 'word') apply(entry.effect, negated, term);
      else if (entry.kind === 'artist') {
        (negated ? query.excludeArtists : query.artists).push(entry.name);
        query.terms.push(negated ? `not ${entry.name}` : entry.name);
      } else if (entry.kind === 'album') {
        if (!negated) query.albums.push(entry.name);
        query.terms.push(negated ? `not ${entry.name}` : entry.name);
      } else if (entry.kind === 'language') {
        if (!negated && !query.languages.includes(entry.language)) query.languages.push(entry.language);
        query.terms.push(negated ? `not ${entry.language}` : entry.language);
      } else if (entry.kind === 'genre') {
        const genre = entry.genre;
        const inLibrary = libraryGenres.some((tag) => containsWords(tag, genre));
        if (negated) {
          query.excludeGenres.push(genre);
          query.terms.push(`not ${genre}`);
        } else if (inLibrary) {
          query.genres.push(genre);
          query.terms.push(genre);
        } else {
          // Not in the library: its sound stands in, and the description says so.
          query.missingGenres.push(genre);
          apply(KNOWN_GENRES[genre] ?? {}, false, genre);
        }
      }
      reach = Math.max(0, reach - length);
      i += length;
      continue;
    }
    if (NEGATIONS.has(token)) reach = NEGATION_REACH + 1;
    reach = Math.max(0, reach - 1);
    i++;
  }
  for (const [emoji, effect] of Object.entries(EMOJI)) if (prompt.includes(emoji)) apply(effect, false, emoji);

  for (const [feature, sum] of sums) query.targets[feature] = Math.round((sum.total / sum.n) * 1000) / 1000;
  if (query.instrumental === true) query.targets.vocals = 0;
  if (query.instrumental === false) query.targets.vocals = 1;
  return query;
}

/** Every name and word the parser knows, by its normalised spelling. */
function buildDictionary(vocabulary: LibraryVocabulary): Map<string, Entry> {
  const dictionary = new Map<string, Entry>();
  const add = (key: string, entry: Entry) => {
    const spelt = normalise(key.replace(/_/gu, ' '));
    if (spelt.length >= 2 && !dictionary.has(spelt)) dictionary.set(spelt, entry);
  };
  // The library's names first: "The Doors" is the band even though "doors" means nothing else.
  for (const name of vocabulary.artists) if (normalise(name).length >= 3) add(name, { kind: 'artist', name });
  for (const name of vocabulary.albums) if (normalise(name).length >= 3) add(name, { kind: 'album', name });
  for (const tag of vocabulary.genres) {
    const genre = normaliseGenre(tag);
    if (genre.length >= 2) {
      add(genre, { kind: 'genre', genre });
      add(genre.replace(/ /gu, ''), { kind: 'genre', genre });
      add(genre.replace(/ /gu, '-'), { kind: 'genre', genre });
    }
  }
  for (const genre of Object.keys(KNOWN_GENRES)) add(genre, { kind: 'genre', genre: normaliseGenre(genre) });
  add('hip-hop', { kind: 'genre', genre: 'hip hop' });
  add('lo-fi', { kind: 'genre', genre: 'lo fi' });
  for (const [word, genre] of Object.entries(HEBREW_GENRES)) add(word, { kind: 'genre', genre });
  for (const [word, language] of Object.entries(LANGUAGES)) add(word, { kind: 'language', language });
  for (const [word, effect] of Object.entries({ ...MOODS, ...WORDS, ...HEBREW_WORDS })) add(word, { kind: 'word', effect });
  return dictionary;
}

const LONGEST_KEY = 5;

/** The longest known name or phrase at `tokens[i]`, else a Hebrew word without its prefixes, else a typo of a known word. */
function lookUp(tokens: string[], i: number, dictionary: Map<string, Entry>): { entry: Entry; length: number; term: string } | undefined {
  for (let length = Math.min(LONGEST_KEY, tokens.length - i); length >= 1; length--) {
    const words = tokens.slice(i, i + length);
    if (words.includes('|')) continue;
    const key = words.join(' ');
    const entry = dictionary.get(key);
    if (entry) return { entry, length, term: key };
    if (length === 2 && isHebrew(key)) {
      for (const bare of hebrewWithoutPrefixes(words[0]!)) {
        const found = dictionary.get(`${bare} ${words[1]}`);
        if (found) return { entry: found, length, term: key };
      }
    }
  }
  const token = tokens[i]!;
  if (isHebrew(token)) {
    for (const bare of hebrewWithoutPrefixes(token)) {
      const entry = dictionary.get(bare);
      if (entry) return { entry, length: 1, term: bare };
    }
  }
  if (STOP_WORDS.has(token) || NEGATIONS.has(token)) return undefined;
  const corrected = correctTypo(token, typoTargets(dictionary));
  const entry = corrected ? dictionary.get(corrected) : undefined;
  return entry && corrected ? { entry, length: 1, term: corrected } : undefined;
}

const typoCache = new WeakMap<Map<string, Entry>, string[]>();
/** Single words a typo may stand for: moods, activities, genres (not names of the library). */
function typoTargets(dictionary: Map<string, Entry>): string[] {
  let targets = typoCache.get(dictionary);
  if (!targets) {
    targets = [...dictionary.entries()].filter(([key, entry]) => !key.includes(' ') && (entry.kind === 'word' || entry.kind === 'genre')).map(([key]) => key);
    typoCache.set(dictionary, targets);
  }
  return targets;
}

/**
 * The themes after "about": words up to the end of the clause or a word that starts something
 * else ("for driving"); "and"/"or" separate themes ("love and loss": either).
 */
function readThemes(tokens: string[], start: number, dictionary: Map<string, Entry>): { themes: string[]; next: number } {
  const themes: string[] = [];
  let words: string[] = [];
  let i = start;
  const close = () => {
    if (words.length > 0) themes.push(words.slice(0, 3).join(' '));
    words = [];
  };
  for (; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '|' || NEGATIONS.has(token) || (THEME_ENDS.has(token) && !(token === 'in' && tokens[i + 1] === 'love'))) break;
    if (token === 'and' || token === 'or' || token === 'ו') {
      close();
      continue;
    }
    if (words.length > 0 && dictionary.get(token)?.kind === 'word' && !/^lov/u.test(token)) break;
    if (STOP_WORDS.has(token) || token.length < 2) continue;
    words.push(token.replace(/'s$/u, ''));
  }
  close();
  return { themes, next: i };
}

function containsWords(haystack: string, needle: string): boolean {
  return ` ${haystack} `.includes(` ${needle} `);
}

/** "my favourites", "songs I liked" → favourites; "my songs", "my own music", "I uploaded" → the caller's own and liked songs. */
function readScope(text: string, query: PromptQuery): string {
  const favourites =
    /\b(?:my|our) (?:own )?(?:favou?rites?|faves|likes|liked(?: songs| tracks| music)?|loved(?: songs| tracks)?|starred(?: songs| tracks)?)\b|\b(?:songs?|tracks?|music) (?:that )?i (?:have )?(?:liked|like|love|loved|starred)\b|המועדפים שלי|שאהבתי/u.exec(
      text,
    );
  if (favourites) {
    query.scope = 'favourites';
    query.terms.push('your favourites');
    return text.replace(favourites[0], ' ');
  }
  const mine =
    /\b(?:my|our) own\b|\b(?:my|our) (?:songs|music|tracks|uploads|library|collection)\b|\bi (?:have )?uploaded\b|(?:השירים|המוזיקה) שלי|שלי בלבד/u.exec(text);
  if (mine) {
    query.scope = 'mine';
    query.terms.push('your songs');
    return text.replace(mine[0], ' ');
  }
  return text;
}

/** Size: "5 songs", "ten tracks", "an hour", "90 minutes", "half an hour", "1.5 hours". */
function readSize(text: string, query: PromptQuery, replace: (match: string, keep: string) => void): void {
  for (const match of text.matchAll(
    /\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|couple|few)\b(?: [\p{L}-]+){0,2} (?:songs?|tracks?|tunes)\b/gu,
  )) {
    const n = Number(match[1]) || NUMBER_WORDS[match[1]!];
    if (n && n >= 1) {
      query.count = Math.min(100, Math.round(n));
      replace(match[0], match[0].slice(match[1]!.length)); // "5 fast songs": "fast" still counts
    }
  }
  const half = /\bhalf an? hour\b/u.exec(text);
  if (half) {
    query.minutes = 30;
    replace(half[0], ' ');
    return;
  }
  for (const match of text.matchAll(/\b(\d{1,3}(?:\.\d+)?|an?|one|two|three|four|five|six|ten|twenty|thirty|forty|fifty) (hours?|hrs?|minutes?|mins?)\b/gu)) {
    const n = Number(match[1]) || NUMBER_WORDS[match[1]!] || 0;
    if (n > 0) {
      query.minutes = Math.min(600, match[2]!.startsWith('h') ? n * 60 : n);
      replace(match[0], ' ');
    }
  }
}

/** Explicit tempo: "120 bpm", "over 140 bpm", "under 90 bpm". */
function readExplicitTempo(text: string, query: PromptQuery): string {
  let rest = text;
  for (const match of text.matchAll(/\b(over|above|faster than|at least|under|below|slower than|at most)? ?(\d{2,3}) ?bpm\b/gu)) {
    const bpm = Number(match[2]);
    const direction = match[1] ?? '';
    query.tempo = /over|above|faster|least/u.test(direction)
      ? { min: bpm }
      : /under|below|slower|most/u.test(direction)
        ? { max: bpm }
        : { min: bpm - 8, max: bpm + 8 };
    query.terms.push(`${bpm} BPM`);
    rest = rest.replace(match[0], ' ');
  }
  return rest;
}

function parseYears(text: string): { range: { from: number; to: number }; term: string; match: string } | undefined {
  let match = /\b(1[89]\d\d|20\d\d) ?(?:-|to|–|until) ?(1[89]\d\d|20\d\d)\b/u.exec(text);
  if (match) return { range: { from: Number(match[1]), to: Number(match[2]) }, term: `${match[1]}-${match[2]}`, match: match[0] };
  match = /(?:\b|')((?:1[89]|20)?\d0)'?s\b/u.exec(text);
  if (match) {
    const value = Number(match[1]);
    const from = value >= 1000 ? value : value >= 30 ? 1900 + value : 2000 + value;
    return { range: { from, to: from + 9 }, term: `${from}s`, match: match[0] };
  }
  for (const [word, from] of Object.entries(DECADE_WORDS)) {
    if (text.includes(` ${word} `)) return { range: { from, to: from + 9 }, term: `${from}s`, match: word };
  }
  match = /\b(before|after|since|from|in) (1[89]\d\d|20\d\d)\b/u.exec(text);
  if (match) {
    const year = Number(match[2]);
    const range =
      match[1] === 'before'
        ? { from: 1000, to: year - 1 }
        : match[1] === 'after'
          ? { from: year + 1, to: 3000 }
          : match[1] === 'in'
            ? { from: year, to: year }
            : { from: year, to: 3000 };
    return { range, term: `${match[1]} ${year}`, match: match[0] };
  }
  return undefined;
}
