/**
 * The evaluation of AI playlists on two labelled libraries, each analysed by Encore's analyser
 * and then asked prompts through the embedded parser and ranker (the LLM is not involved):
 * - A (`labelled-library.ts`): 40 songs synthesised by ffmpeg expressions, voices by espeak-ng;
 *   tempo, loudness, brightness, mode, vocals; genres Rock/Jazz/Electronic/Folk of the 70s, 80s,
 *   90s and 2010s. The set the ranking was tuned on.
 * - B (`labelled-library-b.ts`): 48 songs built differently (additive, plucked-string and FM
 *   synthesis in code, chord progressions and melodic leads, other voices: formant-sung, rapped,
 *   whispered, Hebrew and Spanish espeak voices, some quiet under loud instruments, some lossy at a
 *   low bitrate), other genres (Ambient, Hip-Hop, Classical, Pop, Metal) and years (60s to 2020s),
 *   lyrics with themes. Nothing is tuned on it.
 * For each prompt: precision@10 (the share of the top 10, or of the size the prompt asks, whose
 * labels answer it) next to chance; the means per prompt class and overall (goal ≥ 0.85, no class
 * below 0.7); the vocal-presence estimate's AUC on each library; the analysis speed.
 * Titles ("Track 01") and artists give nothing away. Analyses are cached in the OS temp folder.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Candidate } from '../../server/src/features/discovery/discovery.repository.js';
import { vocabularyOf } from '../../server/src/features/discovery/discovery.service.js';
import { parsePrompt } from '../../server/src/features/discovery/prompt/parse-prompt.js';
import { applicableQuery } from '../../server/src/features/discovery/ranking/applicability.js';
import { rankSongs } from '../../server/src/features/discovery/ranking/rank.js';
import { analysedLibrary, auc, type AnalysedSong } from './analysed-library.js';
import { drawLabels, LINES, synthesise, type Labels } from './labelled-library.js';
import { LIBRARY_B, type LabelsB } from './labelled-library-b.js';

const here = path.dirname(fileURLToPath(import.meta.url));
type Check<L> = (labels: L, library: L[]) => boolean;
type Prompt<L> = [cls: string, prompt: string, answers: Check<L>];

// ---- Library A ----------------------------------------------------------------------------
const A_COUNT = 40;
const A_SECONDS = 20;
interface LabelsA extends Labels {
  index: number;
  year: number;
  lyrics: string | null;
}
const oldestDecade = <L extends { year: number }>(labels: L, library: L[]) =>
  Math.floor(labels.year / 10) === Math.min(...library.map((song) => Math.floor(song.year / 10)));

const PROMPTS_A: Prompt<LabelsA>[] = [
  ['mood', 'melancholic', (l) => !l.major],
  ['mood', 'uplifting', (l) => l.major && l.loud],
  ['mood', 'peaceful', (l) => !l.loud],
  ['mood', 'relaxing', (l) => !l.loud && !l.fast],
  ['mood', 'intense', (l) => l.loud && l.fast],
  ['mood', 'energetic', (l) => l.loud && l.fast],
  ['mood', 'happy songs', (l) => l.major],
  ['mood', 'sad songs', (l) => !l.major],
  ['activity', 'something calm to fall asleep to', (l) => !l.loud && !l.fast],
  ['activity', 'music for running', (l) => l.fast && l.loud],
  ['activity', 'party', (l) => l.fast && l.loud],
  ['activity', 'music to study so I don’t fall asleep', (l) => !l.loud && !l.vocals],
  ['sound', 'fast energetic songs', (l) => l.fast && l.loud],
  ['sound', 'slow songs', (l) => !l.fast],
  ['sound', 'quiet music', (l) => !l.loud],
  ['sound', 'loud music', (l) => l.loud],
  ['sound', 'bright', (l) => l.bright],
  ['voice', 'songs without vocals', (l) => !l.vocals],
  ['voice', 'songs with vocals', (l) => l.vocals],
  ['voice', 'instrumental tracks only', (l) => !l.vocals],
  ['voice', 'focus music without vocals', (l) => !l.vocals && !l.loud],
  ['tags', '80s rock', (l) => l.decade === 1980 && l.genre === 'Rock'],
  ['tags', 'jazz', (l) => l.genre === 'Jazz'],
  ['tags', 'music from the 90s', (l) => l.decade === 1990],
  ['tags', 'electronic', (l) => l.genre === 'Electronic'],
  ['tags', 'folk from the 70s', (l) => l.genre === 'Folk' && l.decade === 1970],
  ['era & lyrics', 'nostalgic', oldestDecade],
  ['era & lyrics', 'songs about the sea', (l) => l.lyrics === LINES[0]],
  ['era & lyrics', 'songs about going back home', (l) => l.lyrics === LINES[2]],
  ['era & lyrics', 'שירים על הים', (l) => l.lyrics === LINES[0]],
  ['words', 'enrgetic songs', (l) => l.loud && l.fast],
  ['words', 'melancolic', (l) => !l.major],
  ['words', 'no rock', (l) => l.genre !== 'Rock'],
  ['words', 'RELAXING 😌', (l) => !l.loud && !l.fast],
  ['words', 'שירים שקטים', (l) => !l.loud],
  ['words', '5 slow minor songs', (l) => !l.fast && !l.major],
];

function libraryA() {
  return drawLabels(A_COUNT).map((label, index) => {
    const labels: LabelsA = { ...label, index, year: label.decade + (index % 10), lyrics: label.vocals ? LINES[index % LINES.length]! : null };
    return { labels, synthesise: (dir: string) => synthesise(dir, index, label, A_SECONDS) };
  });
}

// ---- Library B ----------------------------------------------------------------------------
const PROMPTS_B: Prompt<LabelsB>[] = [
  ['mood', 'melancholic', (l) => !l.major],
  ['mood', 'uplifting', (l) => l.major && l.loud],
  ['mood', 'peaceful', (l) => !l.loud],
  ['mood', 'relaxing', (l) => !l.loud && !l.fast],
  ['mood', 'intense', (l) => l.loud && l.fast],
  ['mood', 'energetic', (l) => l.loud && l.fast],
  ['mood', 'happy songs', (l) => l.major],
  ['mood', 'sad songs', (l) => !l.major],
  ['activity', 'something calm to fall asleep to', (l) => !l.loud && !l.fast],
  ['activity', 'music for running', (l) => l.fast && l.loud],
  ['activity', 'party', (l) => l.fast && l.loud],
  ['activity', 'music to study so I don’t fall asleep', (l) => !l.loud && l.voice === 'none'],
  ['sound', 'fast energetic songs', (l) => l.fast && l.loud],
  ['sound', 'slow songs', (l) => !l.fast],
  ['sound', 'quiet music', (l) => !l.loud],
  ['sound', 'loud music', (l) => l.loud],
  ['sound', 'bright', (l) => l.bright],
  ['voice', 'songs without vocals', (l) => l.voice === 'none'],
  ['voice', 'songs with vocals', (l) => l.voice !== 'none'],
  ['voice', 'instrumental tracks only', (l) => l.voice === 'none'],
  ['voice', 'focus music without vocals', (l) => l.voice === 'none' && !l.loud],
  ['tags', 'hip hop', (l) => l.genre === 'Hip-Hop'],
  ['tags', 'classical music', (l) => l.genre === 'Classical'],
  ['tags', 'music from the 2000s', (l) => Math.floor(l.year / 10) === 200],
  ['tags', '60s pop', (l) => l.genre === 'Pop' && Math.floor(l.year / 10) === 196],
  ['tags', 'ambient', (l) => l.genre === 'Ambient'],
  ['era & lyrics', 'nostalgic', oldestDecade],
  ['era & lyrics', 'romantic', (l) => l.theme === 'love'],
  ['era & lyrics', 'songs about the sea', (l) => l.theme === 'sea'],
  ['era & lyrics', 'songs about leaving home', (l) => l.theme === 'leaving home'],
  ['era & lyrics', 'שירים על הים', (l) => l.theme === 'sea'],
  ['words', 'energettic songs', (l) => l.loud && l.fast],
  ['words', 'melancholik', (l) => !l.major],
  ['words', 'no metal', (l) => l.genre !== 'Metal'],
  ['words', 'PEACEFUL 😴', (l) => !l.loud],
  ['words', 'שירים עצובים', (l) => !l.major],
  ['words', '5 fast major songs', (l) => l.fast && l.major],
];

// ---- Evaluation ---------------------------------------------------------------------------
interface Labelled {
  year: number;
  genre: string;
  lyrics: string | null;
  vocals: boolean;
}

function candidates<L extends Labelled>(songs: AnalysedSong<L>[]): (Candidate & { labels: L })[] {
  return songs.map((song, index) => {
    const title = `Track ${String(index + 1).padStart(2, '0')}`;
    return {
      id: index + 1,
      displayName: title,
      title,
      artist: `Artist ${(index % 13) + 1}`,
      album: null,
      genre: song.labels.genre,
      year: song.labels.year,
      durationSeconds: 200,
      transcript: song.labels.lyrics,
      features: song.features,
      vector: song.vector,
      labels: song.labels,
    };
  });
}

function evaluate<L extends Labelled>(name: string, songs: AnalysedSong<L>[], prompts: Prompt<L>[]): { byClass: Map<string, number[]>; mean: number } {
  const library = candidates(songs);
  const all = library.map((song) => song.labels);
  const vocabulary = vocabularyOf(library);
  const byClass = new Map<string, number[]>();
  console.log(`\n### library ${name}: ${library.length} songs`);
  console.log('class | prompt | expected | returned | precision@k | chance');
  for (const [cls, prompt, answers] of prompts) {
    const { query } = applicableQuery(parsePrompt(prompt, vocabulary), library);
    const ranked = rankSongs(query, library, { random: () => 0.5 });
    const k = Math.min(10, query.count ?? 10);
    const expected = library.filter((song) => answers(song.labels, all)).length;
    const hits = ranked.slice(0, k).filter((entry) => answers((entry.candidate as (typeof library)[number]).labels, all)).length;
    // Fewer songs than k count as misses, unless fewer than k songs answer at all.
    // No song answers: the right answer is none (the API then says so), anything else is wrong.
    const precision = expected === 0 ? (ranked.length === 0 ? 1 : 0) : hits / Math.min(k, expected);
    byClass.set(cls, [...(byClass.get(cls) ?? []), precision]);
    console.log(`${cls} | ${prompt} | ${expected} | ${ranked.length} | ${precision.toFixed(2)} | ${(expected / library.length).toFixed(2)}`);
  }
  const precisions = [...byClass.values()].flat();
  return { byClass, mean: mean(precisions) };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

function describeAnalysis<L extends Labelled & { bpm: number; major: boolean }>(name: string, songs: AnalysedSong<L>[], cached: boolean): void {
  const tempoRight = songs.filter((song) => Math.abs(song.features.bpm - song.labels.bpm) <= song.labels.bpm * 0.04).length;
  const octave = songs.filter((song) => [2, 0.5].some((f) => Math.abs(song.features.bpm - song.labels.bpm * f) <= song.labels.bpm * f * 0.04)).length;
  const modeRight = songs.filter((song) => (song.features.mode === 'major') === song.labels.major).length;
  const seconds = songs.reduce((sum, song) => sum + song.seconds, 0);
  const ms = songs.reduce((sum, song) => sum + song.analysisMs, 0);
  console.log(
    `library ${name}: tempo within 4 %: ${tempoRight}/${songs.length} (octave errors ${octave}); mode right: ${modeRight}/${songs.length}; ` +
      `analysis ${(seconds / (ms / 1000)).toFixed(0)}× real time${cached ? ' (from the cache of an earlier run)' : ''}`,
  );
  const vocalAuc = auc(songs.map((song) => ({ score: song.features.vocalPresence, positive: song.labels.vocals })));
  console.log(
    `library ${name}: vocal presence AUC ${vocalAuc.toFixed(3)} (${songs.filter((song) => song.labels.vocals).length} with a voice, ${songs.filter((song) => !song.labels.vocals).length} without)`,
  );
}

console.log(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
const a = await analysedLibrary('A', libraryA(), [path.join(here, 'labelled-library.ts')]);
describeAnalysis('A', a.songs, a.cached);
const b = await analysedLibrary('B', LIBRARY_B, [path.join(here, 'labelled-library-b.ts')]);
describeAnalysis('B', b.songs, b.cached);
const results = [
  ['A', evaluate('A', a.songs, PROMPTS_A)],
  ['B', evaluate('B', b.songs, PROMPTS_B)],
] as const;

console.log('\n### mean precision@10 per prompt class (goal: mean ≥ 0.85, no class below 0.7)');
const classes = [...new Set([...PROMPTS_A, ...PROMPTS_B].map(([cls]) => cls))];
console.log(`class | ${results.map(([name]) => `library ${name}`).join(' | ')}`);
for (const cls of classes) console.log(`${cls} | ${results.map(([, result]) => mean(result.byClass.get(cls) ?? []).toFixed(3)).join(' | ')}`);
console.log(`all | ${results.map(([, result]) => result.mean.toFixed(3)).join(' | ')}`);
