/**
 * Words as people type them and as lyrics have them: close forms (English suffixes, Hebrew
 * prefixes and endings), typos within one edit, and the few words a theme is also sung with.
 */

const HEBREW = /[\u0590-\u05ff]/u;
const HEBREW_PREFIXES = ['ו', 'ה', 'ב', 'ל', 'מ', 'ש', 'כ'];

/** Irregular English forms, to the stem of their base. */
const IRREGULAR: Record<string, string> = {
  left: 'leav',
  gone: 'go',
  went: 'go',
  goes: 'go',
  ran: 'run',
  sang: 'sing',
  sung: 'sing',
  fell: 'fall',
  fallen: 'fall',
  flew: 'fly',
  flown: 'fly',
  felt: 'feel',
  lost: 'los',
  broke: 'break',
  broken: 'break',
  children: 'child',
  men: 'man',
  women: 'woman',
  nights: 'night',
  skies: 'sky',
  cities: 'city',
  stories: 'story',
};

/** The stem a word shares with its close forms: "leaving", "leaves", "left" → "leav"; "בתים", "ביתי" → "בת". */
export function stem(word: string): string {
  return stems(word)[0]!;
}

/**
 * Every stem a word may have: one for English; for Hebrew one per reading of its first letters
 * (with or without one or two prefix letters: "הים" is "the sea" and "ים" alone "sea").
 */
export function stems(word: string): string[] {
  const lower = word.toLowerCase().replace(/[’‘`´]/gu, "'");
  if (!HEBREW.test(lower)) return [englishStem(lower)];
  const letters = lower.replace(/[^\u05d0-\u05ea]/gu, '');
  const readings = [letters];
  let w = letters;
  for (let i = 0; i < 2 && w.length > 2 && HEBREW_PREFIXES.includes(w[0]!); i++) {
    w = w.slice(1);
    readings.push(w);
  }
  return [...new Set(readings.map(hebrewStem))];
}

function englishStem(word: string): string {
  let w = word.replace(/'s$/u, '').replace(/'$/u, '');
  const irregular = IRREGULAR[w];
  if (irregular) return irregular;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ers') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('er') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ly') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('es') && w.length > 4 && /(?:ss|sh|ch|x|z)es$/u.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1);
  // "running" → "runn" → "run"; "loved"/"love" → "lov"
  if (/([^aeiouls])\1$/u.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Final letters as ordinary ones, a common ending off, and the matres lectionis (ו, י) after the first letter. */
function hebrewStem(letters: string): string {
  const w = letters.replace(/ך/gu, 'כ').replace(/ם/gu, 'מ').replace(/ן/gu, 'נ').replace(/ף/gu, 'פ').replace(/ץ/gu, 'צ');
  const skeleton = (value: string) => (value.length === 0 ? value : value[0]! + value.slice(1).replace(/[וי]/gu, ''));
  for (const ending of ['ימ', 'ות', 'תי', 'נו', 'כמ', 'יה', 'ה', 'ת', 'י']) {
    if (!w.endsWith(ending)) continue;
    const rest = skeleton(w.slice(0, -ending.length));
    if (rest.length >= 2) return rest;
  }
  return skeleton(w);
}

/** Words sung for a theme besides its own forms ("the sea": ocean, waves...), by the theme's stem. */
const THEME_WORDS: Record<string, string[]> = {
  sea: ['sea', 'ocean', 'wave', 'shore', 'tide', 'beach', 'sail', 'sailor', 'harbor', 'harbour', 'ים', 'גל', 'חוף'],
  ocean: ['sea', 'ocean', 'wave', 'shore', 'tide'],
  lov: ['love', 'lover', 'loving', 'kiss', 'darling', 'sweetheart', 'romance', 'heart', 'אהבה', 'אוהב', 'אוהבת', 'נשיקה', 'לב', 'אהובה', 'אהובי'],
  hom: ['home', 'house', 'hometown', 'בית'],
  rain: ['rain', 'rainy', 'storm', 'גשם'],
  night: ['night', 'midnight', 'tonight', 'לילה'],
  summer: ['summer', 'sun', 'sunshine', 'קיץ'],
  leav: ['leave', 'goodbye', 'farewell', 'away', 'עזב', 'פרידה', 'נפרד'],
  friend: ['friend', 'friendship', 'buddy', 'חבר'],
  road: ['road', 'highway', 'drive', 'דרכ', 'כביש'],
  heartbreak: ['heartbreak', 'broken', 'tears', 'cry', 'goodbye'],
  dance: ['dance', 'dancing', 'ריקוד', 'לרקוד'],
};
THEME_WORDS['אהב'] = THEME_WORDS.lov!;
THEME_WORDS['ימ'] = THEME_WORDS.sea!;
THEME_WORDS['בת'] = THEME_WORDS.hom!;
THEME_WORDS['עזב'] = THEME_WORDS.leav!;

/** The stems a theme word is matched by in lyrics: its own, and those of the words sung for it. */
export function themeStems(word: string): Set<string> {
  const own = stems(word);
  const extra = own.map((value) => THEME_WORDS[value]).find(Boolean) ?? THEME_WORDS[word] ?? [];
  return new Set([...own, ...extra.flatMap(stems)]);
}

/** The stems of a text's words (lyrics), for theme matching. */
export function textStems(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}']+/u)) if (word.length > 0) for (const value of stems(word)) found.add(value);
  return found;
}

/**
 * Whether lyrics (as `textStems`) have a theme: every word of it ("leaving home": a form of
 * leave and one of home), each by any of its stems.
 */
export function hasTheme(lyrics: ReadonlySet<string>, theme: string): boolean {
  const words = theme.split(/\s+/u).filter((word) => word.length > 0);
  return words.length > 0 && words.every((word) => [...themeStems(word)].some((candidate) => lyrics.has(candidate)));
}

/** Levenshtein distance, stopping early once above `limit`. */
export function editDistance(a: string, b: string, limit = 2): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Real words a typo-reader must leave alone, though one edit away from a known word. */
const REAL_WORDS = new Set(['quite', 'where', 'there', 'these', 'those', 'while', 'white', 'would', 'could', 'should', 'light', 'right', 'might']);

/**
 * The known word a typed word of five letters or more means, when it is one edit away from
 * exactly one of them ("enrgetic" → "energetic", "melancolic" → "melancholic").
 */
export function correctTypo(word: string, known: Iterable<string>): string | undefined {
  if ([...word].length < 5 || REAL_WORDS.has(word) || /\d/u.test(word)) return undefined;
  let found: string | undefined;
  const candidates = [...known];
  if (candidates.includes(word)) return undefined; // a known word is no typo
  for (const candidate of candidates) {
    if (candidate.length < 5 || candidate.includes(' ') || Math.abs(candidate.length - word.length) > 1) continue;
    if (editDistance(word, candidate, 1) === 1) {
      if (found !== undefined && found !== candidate) return undefined; // two readings: neither
      found = candidate;
    }
  }
  return found;
}

export const isHebrew = (text: string) => HEBREW.test(text);

/** A Hebrew word without its one or two prefix letters, as candidates ("לריצה" → "ריצה"). */
export function hebrewWithoutPrefixes(word: string): string[] {
  const out: string[] = [];
  let w = word;
  for (let i = 0; i < 2 && w.length > 3 && HEBREW_PREFIXES.includes(w[0]!); i++) {
    w = w.slice(1);
    out.push(w);
  }
  return out;
}
