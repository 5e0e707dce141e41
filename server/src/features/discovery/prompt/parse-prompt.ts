import { DECADE_WORDS, EMOJI, HEBREW_WORDS, KNOWN_GENRES, LANGUAGES, MOODS, NEGATIONS, NUMBER_WORDS, WORDS, type Effect } from './lexicon.js';
import { emptyQuery, type PromptQuery, type TargetFeature } from './prompt-query.js';

/** The library's own names, so a prompt can ask for them ("some Radiohead", "no jazz"). */
export interface LibraryVocabulary {
  artists: string[];
  albums: string[];
  genres: string[];
}

const STOP_WORDS = new Set([
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
  'some',
  'songs',
  'song',
  'music',
  'tracks',
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
  'stuff',
]);

/** Lowercased, with apostrophes unified and everything but letters, digits and a few signs as spaces. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`´]/gu, "'")
    .replace(/[^\p{L}\p{N}&'\-.\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * The embedded parser: a prompt to a structured query. Recognises the ten moods and other
 * mood words, activities, tempo and energy words, genres (known ones and the library's tags),
 * decades and years, artists and albums of the library, languages, "without vocals",
 * negations ("no rock", "not sad", "anything but jazz"), lyrics ("about rain") and the size
 * ("5 songs", "an hour"). English and Hebrew; a few emoji.
 */
export function parsePrompt(prompt: string, vocabulary: LibraryVocabulary): PromptQuery {
  const query = emptyQuery();
  const sums = new Map<TargetFeature, { total: number; n: number }>();
  let text = ` ${normalise(prompt)} `;

  const apply = (effect: Effect, negated: boolean, term: string) => {
    query.terms.push(negated ? `not ${term}` : term);
    for (const [feature, value] of Object.entries(effect.targets ?? {}) as [TargetFeature, number][]) {
      const wanted = negated ? 1 - value : value;
      const sum = sums.get(feature) ?? { total: 0, n: 0 };
      sums.set(feature, { total: sum.total + wanted, n: sum.n + 1 });
    }
    if (effect.tempo) {
      const tempo = negated ? { min: effect.tempo.max, max: effect.tempo.min } : effect.tempo;
      query.tempo = mergeTempo(query.tempo, tempo);
    }
    if (effect.instrumental !== undefined) query.instrumental = negated ? !effect.instrumental : effect.instrumental;
    if (effect.flow && !negated) query.flow = effect.flow;
  };
  /** Removes a matched span so later rules do not read it again. */
  const consume = (match: string) => {
    text = text.replace(match, ' ');
  };
  const negatedBefore = (index: number) => {
    const before = text.slice(0, index).trim().split(' ').slice(-2);
    return before.some((word) => NEGATIONS.has(word)) || /\b(anything|everything) but\s*$/u.test(text.slice(0, index));
  };

  // Size: "5 songs", "ten tracks", "an hour", "90 minutes", "half an hour", "1.5 hours".
  for (const match of text.matchAll(
    /\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|couple|few)\b(?: [\p{L}-]+){0,2} (?:songs?|tracks?|tunes)\b/gu,
  )) {
    const n = Number(match[1]) || NUMBER_WORDS[match[1]!];
    if (n && n >= 1) {
      query.count = Math.min(100, Math.round(n));
      text = text.replace(match[0], match[0].slice(match[1]!.length)); // "5 fast songs": "fast" still counts
    }
  }
  const half = /\bhalf an? hour\b/u.exec(text);
  if (half) {
    query.minutes = 30;
    consume(half[0]);
  }
  for (const match of text.matchAll(/\b(\d{1,3}(?:\.\d+)?|an?|one|two|three|four|five|six|ten|twenty|thirty|forty|fifty) (hours?|hrs?|minutes?|mins?)\b/gu)) {
    const n = Number(match[1]) || NUMBER_WORDS[match[1]!] || 0;
    if (n > 0) {
      query.minutes = Math.min(600, match[2]!.startsWith('h') ? n * 60 : n);
      consume(match[0]);
    }
  }

  // Explicit tempo: "120 bpm", "over 140 bpm", "under 90 bpm".
  for (const match of text.matchAll(/\b(over|above|faster than|at least|under|below|slower than|at most)? ?(\d{2,3}) ?bpm\b/gu)) {
    const bpm = Number(match[2]);
    const direction = match[1] ?? '';
    query.tempo = /over|above|faster|least/u.test(direction)
      ? { min: bpm }
      : /under|below|slower|most/u.test(direction)
        ? { max: bpm }
        : { min: bpm - 8, max: bpm + 8 };
    query.terms.push(`${bpm} BPM`);
    consume(match[0]);
  }

  // Years and decades: "80s", "1980s", "'90s", "eighties", "1995-1999", "from 1999", "before 1990", "after 2010".
  const years = parseYears(text);
  if (years) {
    query.years = years.range;
    query.terms.push(years.term);
    consume(years.match);
  }

  // The library's artists, albums and genre tags, longest first.
  const phrase = (name: string) => new RegExp(`(?<=\\s)${escape(normalise(name))}(?=\\s)`, 'u');
  for (const [list, include, exclude] of [
    [vocabulary.artists, query.artists, query.excludeArtists],
    [vocabulary.albums, query.albums, query.albums],
  ] as const) {
    for (const name of [...new Set(list)].filter((value) => normalise(value).length >= 3).sort((a, b) => b.length - a.length)) {
      const match = phrase(name).exec(text);
      if (!match) continue;
      const negated = negatedBefore(match.index);
      (negated ? exclude : include).push(name);
      query.terms.push(negated ? `not ${name}` : name);
      consume(match[0]);
    }
  }
  const genreNames = [...new Set([...vocabulary.genres.map(normalise), ...Object.keys(KNOWN_GENRES)])]
    .filter((genre) => genre.length >= 2)
    .sort((a, b) => b.length - a.length);
  for (const genre of genreNames) {
    const match = phrase(genre).exec(text);
    if (!match) continue;
    const negated = negatedBefore(match.index);
    const inLibrary = vocabulary.genres.some((tag) => normalise(tag).includes(genre));
    if (negated) query.excludeGenres.push(genre);
    else if (inLibrary) query.genres.push(genre);
    // A known genre the library has no tag for still says something about the sound.
    if (!inLibrary && !negated && KNOWN_GENRES[genre]) apply(KNOWN_GENRES[genre], false, genre);
    else query.terms.push(negated ? `not ${genre}` : genre);
    consume(match[0]);
  }

  // Languages: "in hebrew", "hebrew songs".
  for (const [word, language] of Object.entries(LANGUAGES)) {
    const match = phrase(word).exec(text);
    if (!match) continue;
    if (!query.languages.includes(language)) query.languages.push(language);
    query.terms.push(language);
    consume(match[0]);
  }

  // Lyrics: "about rain", "songs about love".
  for (const match of text.matchAll(/\babout ([\p{L}']{3,})/gu)) {
    if (STOP_WORDS.has(match[1]!)) continue;
    query.lyrics.push(match[1]!.replace(/'s$/u, ''));
    query.terms.push(`about ${match[1]}`);
  }

  // Multi-word phrases, then single words (English, Hebrew), then emoji.
  const lexicon: Record<string, Effect> = { ...MOODS, ...WORDS, ...HEBREW_WORDS };
  for (const key of Object.keys(lexicon)
    .filter((key) => key.includes(' '))
    .sort((a, b) => b.length - a.length)) {
    const match = phrase(key).exec(text);
    if (!match) continue;
    apply(lexicon[key]!, negatedBefore(match.index), key);
    consume(match[0]);
  }
  const words = text.trim().split(' ');
  words.forEach((word, index) => {
    const effect = lexicon[word] ?? lexicon[word.replace(/^[ולבהמש](?=[\u0590-\u05ff]{3})/u, '')];
    if (!effect) return;
    const negated = words.slice(Math.max(0, index - 2), index).some((before) => NEGATIONS.has(before));
    apply(effect, negated, word);
  });
  for (const [emoji, effect] of Object.entries(EMOJI)) if (prompt.includes(emoji)) apply(effect, false, emoji);

  for (const [feature, sum] of sums) query.targets[feature] = Math.round((sum.total / sum.n) * 1000) / 1000;
  if (query.instrumental === true) query.targets.vocals = 0;
  if (query.instrumental === false) query.targets.vocals = 1;
  return query;
}

function mergeTempo(current: PromptQuery['tempo'], next: { min?: number; max?: number }): PromptQuery['tempo'] {
  const min = Math.max(current?.min ?? 0, next.min ?? 0) || undefined;
  const max = Math.min(current?.max ?? 1000, next.max ?? 1000);
  const tempo = { min, max: max < 1000 ? max : undefined };
  // Contradictions ("fast" and "slow") cancel out rather than exclude everything.
  if (tempo.min !== undefined && tempo.max !== undefined && tempo.min > tempo.max) return undefined;
  return tempo;
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

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
