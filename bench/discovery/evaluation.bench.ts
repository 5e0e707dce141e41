/**
 * The evaluation of AI playlists: a labelled library of 40 synthesised songs (tempo, energy,
 * brightness, mode, vocals; genre and decade tags; titles "Track 01"... that give nothing
 * away) is analysed by Encore's analyser, then 24 prompts run through the embedded parser and
 * ranker. For each prompt: precision@10 (the share of the top 10, or of the size the prompt
 * asks, whose labels answer it) next to chance (the share of the library that does).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { analyseSignal } from '../../server/src/features/discovery/analysis/analyse-signal.js';
import type { Candidate } from '../../server/src/features/discovery/discovery.repository.js';
import { vocabularyOf } from '../../server/src/features/discovery/discovery.service.js';
import { parsePrompt } from '../../server/src/features/discovery/prompt/parse-prompt.js';
import { rankSongs } from '../../server/src/features/discovery/ranking/rank.js';
import { drawLabels, synthesise, type Labels } from './labelled-library.js';

const run = promisify(execFile);
const COUNT = 40;
const SECONDS = 20;

const PROMPTS: [string, (l: Labels) => boolean][] = [
  ['something calm to fall asleep to', (l) => !l.loud && !l.fast],
  ['fast energetic songs', (l) => l.fast && l.loud],
  ['melancholic', (l) => !l.major],
  ['uplifting', (l) => l.major && l.loud],
  ['songs without vocals', (l) => !l.vocals],
  ['songs with vocals', (l) => l.vocals],
  ['slow songs', (l) => !l.fast],
  ['quiet music', (l) => !l.loud],
  ['loud music', (l) => l.loud],
  ['80s rock', (l) => l.decade === 1980 && l.genre === 'Rock'],
  ['jazz', (l) => l.genre === 'Jazz'],
  ['no rock', (l) => l.genre !== 'Rock'],
  ['music from the 90s', (l) => l.decade === 1990],
  ['happy songs', (l) => l.major],
  ['sad songs', (l) => !l.major],
  ['music for running', (l) => l.fast],
  ['party', (l) => l.fast && l.loud],
  ['peaceful', (l) => !l.loud],
  ['intense', (l) => l.loud && l.fast],
  ['relaxing', (l) => !l.loud && !l.fast],
  ['bright', (l) => l.bright],
  ['electronic', (l) => l.genre === 'Electronic'],
  ['folk from the 70s', (l) => l.genre === 'Folk' && l.decade === 1970],
  ['5 slow minor songs', (l) => !l.fast && !l.major],
];

const dir = await mkdtemp(path.join(tmpdir(), 'encore-eval-'));
const labels = drawLabels(COUNT);
const library: (Candidate & { labels: Labels })[] = [];
let analysisMs = 0;
for (const [index, label] of labels.entries()) {
  const file = await synthesise(dir, index, label, SECONDS);
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', '22050', '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  });
  const samples = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.byteLength));
  const started = performance.now();
  const { features, vector } = analyseSignal(samples);
  analysisMs += performance.now() - started;
  const title = `Track ${String(index + 1).padStart(2, '0')}`;
  library.push({
    id: index + 1,
    displayName: title,
    title,
    artist: `Artist ${(index % 13) + 1}`,
    album: null,
    genre: label.genre,
    year: label.decade + (index % 10),
    durationSeconds: 200,
    transcript: null,
    features,
    vector,
    labels: label,
  });
}
await rm(dir, { recursive: true, force: true });

const tempoRight = library.filter((song) => Math.abs(song.features.bpm - song.labels.bpm) <= song.labels.bpm * 0.04).length;
const tempoOctave = library.filter((song) => [2, 0.5].some((f) => Math.abs(song.features.bpm - song.labels.bpm * f) <= song.labels.bpm * f * 0.04)).length;
const modeRight = library.filter((song) => (song.features.mode === 'major') === song.labels.major).length;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
console.log(`tempo within 4 %: ${tempoRight}/${COUNT} (octave errors ${tempoOctave}); mode right: ${modeRight}/${COUNT}`);
console.log(
  `mean vocal estimate: with vocals ${mean(library.filter((s) => s.labels.vocals).map((s) => s.features.vocalPresence)).toFixed(2)}, without ${mean(library.filter((s) => !s.labels.vocals).map((s) => s.features.vocalPresence)).toFixed(2)}`,
);
console.log(
  `mean brightness: bright ${mean(library.filter((s) => s.labels.bright).map((s) => s.features.brightness)).toFixed(2)}, dull ${mean(library.filter((s) => !s.labels.bright).map((s) => s.features.brightness)).toFixed(2)}`,
);
const vocabulary = vocabularyOf(library);
let precisionSum = 0;
let chanceSum = 0;
console.log(
  `${COUNT} songs of ${SECONDS} s analysed in ${(analysisMs / 1000).toFixed(1)} s (${((COUNT * SECONDS * 1000) / analysisMs).toFixed(0)}× real time, analysis only)`,
);
console.log('prompt | expected | returned | precision@k | chance');
for (const [prompt, answers] of PROMPTS) {
  const query = parsePrompt(prompt, vocabulary);
  const ranked = rankSongs(query, library, { random: () => 0.5 });
  const k = Math.min(10, query.count ?? 10);
  const expected = library.filter((song) => answers(song.labels)).length;
  const hits = ranked.slice(0, k).filter((entry) => answers((entry.candidate as (typeof library)[number]).labels)).length;
  // Fewer songs than k count as misses, unless fewer than k songs answer at all.
  // No song answers: the right answer is none (the API then says so), anything else is wrong.
  const precision = expected === 0 ? (ranked.length === 0 ? 1 : 0) : hits / Math.min(k, expected);
  const chance = expected / COUNT;
  precisionSum += precision;
  chanceSum += chance;
  console.log(`${prompt} | ${expected} | ${ranked.length} | ${precision.toFixed(2)} | ${chance.toFixed(2)}`);
}
console.log(`mean precision@10 ${(precisionSum / PROMPTS.length).toFixed(3)} (goal ≥ 0.8), mean chance ${(chanceSum / PROMPTS.length).toFixed(3)}`);
