/**
 * The vocal-presence detector (issue 31) on three labelled sets built by different means: set A
 * (vocal-sets/set-a.ts: music synthesised here, espeak-ng voices) and set C (vocal-sets/set-c.ts:
 * sox one-shot beds, loud drums and overdriven guitars, hard melodic leads, flite and espeak
 * variant voices spoken, rapped, vocoded or bent onto melodies and whispered, voices in part of a
 * clip, other codecs), the development sets the detector's weights were fitted on together; and
 * set B (vocal-sets/set-b.ts: sox/ffmpeg instruments, flite voices, other tempos and codecs), held
 * out: never tuned on, never read to design the method. Each clip is decoded as the analysis does
 * (ffmpeg, 22.05 kHz mono) and run through `detectVocals`. Prints the AUC (the chance that a clip
 * with a voice scores above one without) on each set, by voice level and by kind, accuracy at the
 * 0.5 decision point, the worst misses, and the detector's time per minute of audio. Nothing is
 * asserted.
 *
 * VOCAL_SET=A|B|C runs one set only. VOCAL_CLIPS (80) clips of VOCAL_SECONDS (20) per set; the
 * sets are generated once into VOCAL_SETS_DIR (a temp folder by default) and reused while their
 * manifest is there. VOCAL_DUMP=file writes every clip's measures as JSON (for fitting on sets A
 * and C). Needs ffmpeg, sox, espeak-ng and flite (Debian: `apt-get install sox espeak-ng flite`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ANALYSIS_SAMPLE_RATE } from '../../server/src/features/discovery/analysis/analyse-signal.js';
import { detectVocals, type VocalMeasures } from '../../server/src/features/discovery/analysis/vocal-detector.js';
import { readAudio, type Clip } from './vocal-sets/audio-kit.js';
import { buildSetA } from './vocal-sets/set-a.js';
import { buildSetB } from './vocal-sets/set-b.js';
import { buildSetC } from './vocal-sets/set-c.js';

const COUNT = Number(process.env['VOCAL_CLIPS'] ?? 80);
const SECONDS = Number(process.env['VOCAL_SECONDS'] ?? 20);
const ROOT = process.env['VOCAL_SETS_DIR'] ?? path.join(os.tmpdir(), 'encore-vocal-sets');
const only = process.env['VOCAL_SET'];

interface Scored extends Clip {
  presence: number;
  confidence: number;
  measures: VocalMeasures;
  ms: number;
  /** CPU time of the process during the detection (the bench runs nothing else meanwhile). */
  cpuMs: number;
  audioSeconds: number;
}

async function loadSet(name: string, build: (dir: string, count: number, seconds: number) => Promise<Clip[]>): Promise<Clip[]> {
  const dir = path.join(ROOT, `${name}-${COUNT}x${SECONDS}`);
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest)) return JSON.parse(await readFile(manifest, 'utf8')) as Clip[];
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  const clips = await build(dir, COUNT, SECONDS);
  await writeFile(manifest, JSON.stringify(clips, null, 1));
  console.log(`set ${name}: ${clips.length} clips generated in ${((performance.now() - started) / 1000).toFixed(0)} s into ${dir}`);
  return clips;
}

async function score(clips: Clip[]): Promise<Scored[]> {
  const scored: Scored[] = [];
  for (const clip of clips) {
    const samples = await readAudio(clip.file, ANALYSIS_SAMPLE_RATE);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const estimate = detectVocals(samples, ANALYSIS_SAMPLE_RATE);
    const used = process.cpuUsage(cpu);
    scored.push({
      ...clip,
      ...estimate,
      ms: performance.now() - started,
      cpuMs: (used.user + used.system) / 1000,
      audioSeconds: samples.length / ANALYSIS_SAMPLE_RATE,
    });
  }
  return scored;
}

/** Probability that a random positive outscores a random negative (ties count half). */
export function auc(values: { positive: boolean; value: number }[]): number {
  const positives = values.filter((v) => v.positive).map((v) => v.value);
  const negatives = values.filter((v) => !v.positive).map((v) => v.value);
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

function report(name: string, scored: Scored[]): void {
  const all = scored.map((s) => ({ positive: s.voice, value: s.presence }));
  const correct = scored.filter((s) => s.presence >= 0.5 === s.voice).length;
  console.log(`\n### Set ${name}: ${scored.length} clips (${scored.filter((s) => s.voice).length} with a voice)`);
  console.log(
    `AUC ${auc(all).toFixed(3)} · accuracy at 0.5: ${((100 * correct) / scored.length).toFixed(0)}% · mean confidence ${mean(scored.map((s) => s.confidence)).toFixed(2)}`,
  );
  const negatives = scored.filter((s) => !s.voice);
  const bucket = (label: string, keep: (s: Scored) => boolean) => {
    const positives = scored.filter((s) => s.voice && keep(s));
    const value = auc([...positives, ...negatives].map((s) => ({ positive: s.voice, value: s.presence })));
    console.log(
      `| ${label} | ${positives.length} | ${value.toFixed(3)} | ${(positives.filter((s) => s.presence >= 0.5).length / Math.max(1, positives.length)).toFixed(2)} |`,
    );
  };
  console.log('| voices (against all instrumentals) | clips | AUC | share found at 0.5 |');
  console.log('|---|---|---|---|');
  bucket('voice 0 to -8 dB under the music', (s) => (s.voiceDb ?? 0) > -8);
  bucket('voice -8 to -14 dB', (s) => (s.voiceDb ?? 0) <= -8 && (s.voiceDb ?? 0) > -14);
  bucket('voice -14 to -20 dB', (s) => (s.voiceDb ?? 0) <= -14);
  for (const style of ['spoken', 'rapped', 'sung', 'whispered']) bucket(style, (s) => s.description.startsWith(style));
  for (const codec of ['wav', 'flac', 'mp3', 'opus', 'aac', 'vorbis']) {
    const subset = scored.filter((s) => s.description.includes(codec));
    if (subset.length > 0)
      console.log(`| codec ${codec}: all clips | ${subset.length} | ${auc(subset.map((s) => ({ positive: s.voice, value: s.presence }))).toFixed(3)} | |`);
  }
  const falseAlarms = negatives.filter((s) => s.presence >= 0.5);
  console.log(`instrumentals at or above 0.5: ${falseAlarms.length} of ${negatives.length}; by lead:`);
  const leads = new Map<string, { count: number; fired: number; sum: number }>();
  for (const s of negatives) {
    const lead = /(\w+) lead/u.exec(s.description)?.[1] ?? '?';
    const entry = leads.get(lead) ?? { count: 0, fired: 0, sum: 0 };
    entry.count++;
    entry.sum += s.presence;
    if (s.presence >= 0.5) entry.fired++;
    leads.set(lead, entry);
  }
  console.log([...leads].map(([lead, e]) => `${lead}: ${e.fired}/${e.count} (mean ${(e.sum / e.count).toFixed(2)})`).join(' · '));
  const misses = scored
    .filter((s) => s.presence >= 0.5 !== s.voice)
    .sort((a, b) => Math.abs(b.presence - 0.5) - Math.abs(a.presence - 0.5))
    .slice(0, 6);
  for (const s of misses) console.log(`  miss: ${s.presence.toFixed(2)} ${s.voice ? 'voice' : 'instrumental'}: ${s.description}`);
  const ms = scored.reduce((sum, s) => sum + s.ms, 0);
  const cpuMs = scored.reduce((sum, s) => sum + s.cpuMs, 0);
  const audio = scored.reduce((sum, s) => sum + s.audioSeconds, 0);
  console.log(
    `detector time per minute of audio (clips of ${SECONDS} s, read whole): ${((ms / audio) * 60).toFixed(0)} ms wall, ${((cpuMs / audio) * 60).toFixed(0)} ms CPU (${(audio / (cpuMs / 1000)).toFixed(0)}× real time per core); a song longer than 60 s is read in 8 excerpts of 6 s`,
  );
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

console.log(
  `load average before: ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`,
);
const dump: Record<string, Scored[]> = {};
if (!only || only === 'A') {
  const scored = await score(await loadSet('A', buildSetA));
  dump['A'] = scored;
  report('A (tuned on)', scored);
}
if (!only || only === 'C') {
  const scored = await score(await loadSet('C', buildSetC));
  dump['C'] = scored;
  report('C (development, tuned on)', scored);
}
if (!only || only === 'B') {
  const scored = await score(await loadSet('B', buildSetB));
  dump['B'] = scored;
  report('B (never tuned on)', scored);
}
if (process.env['VOCAL_DUMP']) await writeFile(process.env['VOCAL_DUMP'], JSON.stringify(dump));
console.log(
  `load average after: ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
