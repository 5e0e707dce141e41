/**
 * Tempo as a listener taps it (issue 31), on library A (`labelled-library.ts`, the evaluation's
 * first set) and library C (`labelled-library-c.ts`, the tempo development set): the share of
 * songs whose analysed `bpm` is within 4 % of the labelled tempo, the octave errors each way
 * (read at double or at half), the fast/slow classification by the analysed tempo (fast from
 * 105 BPM) and as the ranking names it (`tempoWord` of its readings: fast, slow, or unnamed when
 * ambiguous), and the analysis speed. Library B, the held-out set, is not read here.
 * `TEMPO_DETAIL=1` prints every song of A and C. Analyses are cached like the evaluation's.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempoReadings, tempoWord } from '../../server/src/features/discovery/ranking/tempo.js';
import { analysedLibrary, type AnalysedSong } from './analysed-library.js';
import { drawLabels, LINES, synthesise } from './labelled-library.js';
import { LIBRARY_C } from './labelled-library-c.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface TempoLabels {
  bpm: number;
  /** null: between slow and fast, not classified. */
  fast: boolean | null;
  style?: string;
}

const within = (value: number, target: number) => Math.abs(value - target) <= target * 0.04;

function report(name: string, songs: AnalysedSong<TempoLabels>[], cached: boolean): void {
  const right = songs.filter((song) => within(song.features.bpm, song.labels.bpm)).length;
  const doubled = songs.filter((song) => within(song.features.bpm, song.labels.bpm * 2)).length;
  const halved = songs.filter((song) => within(song.features.bpm, song.labels.bpm / 2)).length;
  const classed = songs.filter((song) => song.labels.fast !== null);
  const byBpm = classed.filter((song) => song.features.bpm >= 105 === song.labels.fast).length;
  let named = 0;
  let namedRight = 0;
  for (const song of classed) {
    const word = tempoWord(tempoReadings(song.features));
    if (word === undefined) continue;
    named++;
    if ((word === 'fast') === song.labels.fast) namedRight++;
  }
  const seconds = songs.reduce((sum, song) => sum + song.seconds, 0);
  const ms = songs.reduce((sum, song) => sum + song.analysisMs, 0);
  console.log(
    `library ${name}: tempo within 4 %: ${right}/${songs.length} (octave errors ${doubled + halved}: ${doubled} read double, ${halved} read half); ` +
      `fast/slow by bpm: ${byBpm}/${classed.length}; named by the ranking: ${namedRight} right, ${named - namedRight} wrong, ${classed.length - named} unnamed; ` +
      `analysis ${(seconds / (ms / 1000)).toFixed(0)}× real time${cached ? ' (cached)' : ''}`,
  );
  if (process.env['TEMPO_DETAIL']) {
    for (const [index, song] of songs.entries()) {
      const f = song.features;
      const readings = tempoReadings(f)
        .map((bpm) => bpm.toFixed(0))
        .join('|');
      const mark = within(f.bpm, song.labels.bpm) ? 'ok' : within(f.bpm, song.labels.bpm * 2) ? 'x2' : within(f.bpm, song.labels.bpm / 2) ? '/2' : '??';
      console.log(
        `  ${name}${String(index).padStart(2, '0')} ${(song.labels.style ?? '').padEnd(18)} label ${String(song.labels.bpm).padStart(3)} ` +
          `read ${f.bpm.toFixed(1).padStart(5)} conf ${f.bpmConfidence.toFixed(2)} ${mark} ranking ${readings.padEnd(7)} ` +
          `onsets ${f.onsetRate.toFixed(2)} energy ${f.energy.toFixed(2)} ${f.loudnessLufs.toFixed(0)} LUFS`,
      );
    }
  }
}

console.log(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
// The same songs and labels as the evaluation bench's library A: they share its cache entry.
const specsA = drawLabels(40).map((labels, index) => ({
  labels: { ...labels, index, year: labels.decade + (index % 10), lyrics: labels.vocals ? LINES[index % LINES.length]! : null },
  synthesise: (dir: string) => synthesise(dir, index, labels, 20),
}));
const a = await analysedLibrary('A', specsA, [path.join(here, 'labelled-library.ts')]);
report('A', a.songs, a.cached);
const c = await analysedLibrary('C', LIBRARY_C, [path.join(here, 'labelled-library-c.ts')]);
report('C', c.songs, c.cached);
