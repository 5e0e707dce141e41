/** The language of a song's lyrics, guessed from its script and common words (enough to filter by). */

const SCRIPTS: [RegExp, string][] = [
  [/[\u0590-\u05ff]/gu, 'hebrew'],
  [/[\u0600-\u06ff]/gu, 'arabic'],
  [/[\u0400-\u04ff]/gu, 'russian'],
  [/[\u0370-\u03ff]/gu, 'greek'],
  [/[\u3040-\u30ff]/gu, 'japanese'],
  [/[\uac00-\ud7af]/gu, 'korean'],
  [/[\u4e00-\u9fff]/gu, 'chinese'],
];

const STOP_WORDS: Record<string, string[]> = {
  english: ['the', 'and', 'you', 'i', 'to', 'my', 'is', 'it', 'in', 'me', 'of', 'that', 'love', 'your', 'we'],
  french: ['le', 'la', 'les', 'et', 'je', 'tu', 'est', 'pas', 'une', 'que', 'mon', 'moi', 'dans', 'pour'],
  spanish: ['el', 'la', 'los', 'y', 'yo', 'tu', 'que', 'es', 'no', 'mi', 'una', 'por', 'con', 'para', 'corazón'],
  german: ['der', 'die', 'das', 'und', 'ich', 'du', 'ist', 'nicht', 'ein', 'mein', 'mit', 'auf', 'wir'],
  italian: ['il', 'la', 'e', 'io', 'tu', 'che', 'non', 'un', 'mio', 'per', 'con', 'sono', 'amore'],
  portuguese: ['o', 'a', 'os', 'e', 'eu', 'você', 'que', 'não', 'um', 'meu', 'com', 'para', 'coração'],
};

export function detectLanguage(text: string | null): string | null {
  if (!text || text.trim().length < 20) return null;
  let best: { language: string; count: number } | null = null;
  for (const [pattern, language] of SCRIPTS) {
    const count = text.match(pattern)?.length ?? 0;
    if (count > 20 && (!best || count > best.count)) best = { language, count };
  }
  if (best) return best.language;
  const words = text
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .filter(Boolean);
  const scores = Object.entries(STOP_WORDS).map(([language, list]) => {
    const set = new Set(list);
    return { language, count: words.filter((word) => set.has(word)).length };
  });
  scores.sort((a, b) => b.count - a.count);
  return scores[0] && scores[0].count >= 3 ? scores[0].language : null;
}
