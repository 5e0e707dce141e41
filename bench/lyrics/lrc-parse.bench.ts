/**
 * Reading lyrics files: a 500-line LRC (line times, some lines with two time tags, headers)
 * and the same 500 lines as enhanced LRC (a time per word), parsed 200 times each, plus
 * deriving SPEC 3's lines and writing ELRC back. Prints figures only.
 */
import { documentLines, importLyrics, exportLyrics } from '../../common/src/lyrics-document.rules.js';
import { formatLrcTime, parseLrc } from '../../common/src/lyrics-lrc.format.js';

const LINES = 500;
const RUNS = 200;
const words = ['love', 'night', 'shadow', 'river', 'golden', 'dance', 'we', 'are', 'the', 'light'];

const lrc: string[] = ['[ti:Bench]', '[ar:Encore]'];
const elrc: string[] = [];
for (let i = 0; i < LINES; i += 1) {
  const start = i * 2.4;
  const text = Array.from({ length: 6 }, (_, w) => words[(i + w) % words.length]).join(' ');
  if (i % 50 === 0) lrc.push(`[Verse ${i / 50 + 1}]`);
  lrc.push(i % 25 === 0 ? `[${formatLrcTime(start)}][${formatLrcTime(start + 600)}]${text}` : `[${formatLrcTime(start)}]${text}`);
  const timed = text
    .split(' ')
    .map((word, w) => `<${formatLrcTime(start + w * 0.35)}>${word}`)
    .join(' ');
  elrc.push(`[${formatLrcTime(start)}]${timed} <${formatLrcTime(start + 2.2)}>`);
}
const lrcText = lrc.join('\n');
const elrcText = elrc.join('\n');

function measure(label: string, work: () => unknown): void {
  for (let i = 0; i < 20; i += 1) work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!.toFixed(3);
  console.log(`${label}: median ${p(0.5)} ms, p95 ${p(0.95)} ms (${RUNS} runs)`);
}

console.log(`LRC ${lrcText.length} chars (${lrc.length} rows), ELRC ${elrcText.length} chars (${LINES} lines, ${LINES * 6} words)`);
measure('parse LRC (500 lines)', () => parseLrc(lrcText));
measure('parse ELRC (500 lines, 3000 words)', () => parseLrc(elrcText));
const imported = importLyrics(elrcText).document;
measure('SPEC 3 lines from ELRC words', () => documentLines(imported, 1300));
measure('write ELRC', () => exportLyrics(imported, 'elrc', 1300));
