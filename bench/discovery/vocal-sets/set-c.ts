/**
 * Labelled vocal set C: the development set (the detector is tuned on A and C together, never on
 * B). Built by other means than set A so that a detector fitted on both does not learn one
 * synthesiser's habits:
 * - Music from sox one-shots placed here on a beat grid: sine-sweep kicks, noise snares and hats,
 *   crashes, overdriven sawtooth power chords (loud, palm-muted or held), square bass, `pluck`
 *   arpeggios (piano-like), triangle chords, quiet pads, filtered-noise ambience.
 * - Instrumental leads synthesised here, the hard negatives: a synth lead with portamento,
 *   delayed vibrato and a filter that opens on each note; a bowed sawtooth through fixed body
 *   resonances with vibrato and bow noise (violin-like); a breathy flute-like lead.
 * - Voices from flite (slt, kal, awb, rms) and espeak-ng variants (+croak, +f3, +m2, Spanish,
 *   Hebrew, +whisper): spoken; rapped (fast speech started on the beat and gated by it); sung by
 *   an LPC vocoder that keeps the speech's spectral envelope, stretches its voiced parts and
 *   puts them on the notes of a melody with vibrato; sung by sox `bend` onto a melody; whispered
 *   (espeak's whisper voices, or the vocoder with a noise source only).
 * - The voice throughout or only in part of the clip, at -6..-20 dB under the music (loud
 *   drums and guitars among the beds); WAV, FLAC, MP3 64 and 192 kbit/s, AAC, Opus.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { between, inPool, layPhrases, mix, MIX_RATE, pick, readAudio, run, seeded, writeWav, type Clip, type Random } from './audio-kit.js';

const TEXTS = [
  'the train was late again so I walked the whole way home under the yellow lights',
  'you never told me what you wanted from the summer and now the summer is gone',
  'we built a little house of paper by the water and the wind came in the night',
  'turn the radio up and drive until the city is a glow behind the hills',
  'I keep a picture of the two of us in a book I never finish reading',
  'count the windows on the avenue and call my name when you reach the end',
];
const SPANISH = 'caminamos juntos por la playa y el viento se llevo nuestras palabras al mar';
const HEBREW = 'אני הולך ברחוב בלילה וחושב עלייך ועל הים הגדול';
const FLITE_VOICES = ['slt', 'kal', 'awb', 'rms'] as const;
const ESPEAK_VOICES = ['en+croak', 'en+f3', 'en+m2', 'en-us+f5', 'es', 'he'] as const;
const MINOR = [0, 2, 3, 5, 7, 8, 10, 12, 14, 15];
const CODECS = {
  wav: ['-c:a', 'pcm_s16le'],
  flac: ['-c:a', 'flac'],
  'mp3-64': ['-c:a', 'libmp3lame', '-b:a', '64k'],
  'mp3-192': ['-c:a', 'libmp3lame', '-b:a', '192k'],
  'aac-96': ['-c:a', 'aac', '-b:a', '96k'],
  'opus-48': ['-c:a', 'libopus', '-b:a', '48k'],
} as const;
type Codec = keyof typeof CODECS;
const EXTENSIONS: Record<Codec, string> = { wav: 'wav', flac: 'flac', 'mp3-64': 'mp3', 'mp3-192': 'mp3', 'aac-96': 'm4a', 'opus-48': 'opus' };

type Bed = 'rock' | 'drums' | 'pad' | 'piano' | 'chords' | 'ambient';
type Lead = 'synth' | 'violin' | 'flute' | 'none';
type Style = 'spoken' | 'rapped' | 'sung' | 'bent' | 'whispered';

export async function buildSetC(dir: string, count: number, seconds: number): Promise<Clip[]> {
  await mkdir(dir, { recursive: true });
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    2,
    (index) => makeClip(dir, index, seconds),
  );
}

async function makeClip(dir: string, index: number, seconds: number): Promise<Clip> {
  const random = seeded(7919 + index * 31);
  const voice = index % 2 === 1;
  const base = path.join(dir, `c-${String(index).padStart(3, '0')}`);
  const bpm = Math.round(between(random, 72, 168));
  const beat = 60 / bpm;
  const rootHz = between(random, 82, 147);
  const bed: Bed = pick(random, ['rock', 'rock', 'drums', 'pad', 'piano', 'chords', 'ambient']);
  // Instrumentals mostly carry a melodic lead; some voiced clips have one too, so a lead is no clue.
  const lead: Lead = voice
    ? random() < 0.3
      ? pick(random, ['synth', 'violin', 'flute'] as const)
      : 'none'
    : random() < 0.75
      ? pick(random, ['synth', 'synth', 'violin', 'violin', 'flute'] as const)
      : 'none';
  const codec = (Object.keys(CODECS) as Codec[])[Math.floor(index / 2) % 6]!;
  const music = await makeMusic(base, random, seconds, beat, rootHz, bed);
  if (lead !== 'none') addLead(music, random, lead, beat, rootHz, voice ? 0.15 : between(random, 0.2, 0.45));
  let description = `${bed} bed, ${lead} lead, ${bpm} BPM, ${codec}`;
  let voiceTrack: Float32Array | undefined;
  let voiceDb = 0;
  if (voice) {
    const style: Style = pick(random, ['spoken', 'rapped', 'sung', 'sung', 'bent', 'whispered']);
    const useFlite = random() < 0.5;
    const name =
      style === 'whispered' && !useFlite ? pick(random, ['en+whisper', 'en+whisperf']) : useFlite ? pick(random, FLITE_VOICES) : pick(random, ESPEAK_VOICES);
    const texts = name === 'es' ? [SPANISH] : name === 'he' ? [HEBREW] : [pick(random, TEXTS), pick(random, TEXTS)];
    const phrases: Float32Array[] = [];
    for (const [n, text] of texts.entries()) {
      const speech = await say(`${base}-v${n}.wav`, name, text, style === 'rapped', useFlite);
      phrases.push(await styled(`${base}-s${n}`, speech, style, random, rootHz, beat, name.includes('+f') || name === 'slt'));
    }
    const partial = random() < 0.4;
    const span = partial ? between(random, 6, 10) : seconds;
    const offset = partial ? between(random, 1, seconds - span - 0.5) : 0;
    const part = layPhrases(phrases, span, random, style === 'rapped' ? beat : between(random, 0.3, 2), style === 'rapped' ? [beat, 2 * beat] : [0.3, 1.8]);
    if (style === 'rapped') gate(part, beat);
    voiceTrack = new Float32Array(Math.round(seconds * MIX_RATE));
    voiceTrack.set(part.subarray(0, voiceTrack.length - Math.round(offset * MIX_RATE)), Math.round(offset * MIX_RATE));
    voiceDb = -6 - random() * 14;
    const label = style === 'bent' ? 'sung (speech bent onto a melody)' : style === 'sung' ? 'sung (vocoded onto a melody)' : style;
    description = `${label} ${useFlite ? 'flite ' : ''}${name} at ${voiceDb.toFixed(0)} dB${partial ? ` from ${offset.toFixed(0)} s for ${span.toFixed(0)} s` : ''}, ${description}`;
  }
  const wav = `${base}-mix.wav`;
  await writeWav(wav, mix(music, voiceTrack, voiceDb));
  let file = wav;
  if (codec !== 'wav') {
    file = `${base}.${EXTENSIONS[codec]}`;
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', wav, ...CODECS[codec], file]);
    await rm(wav);
  }
  return { file, voice, description, ...(voice ? { voiceDb } : {}) };
}

// ---- Voices ----------------------------------------------------------------------------------

/** Plain speech from flite or espeak-ng (fast when `fast`), as samples at MIX_RATE. */
async function say(file: string, name: string, text: string, fast: boolean, useFlite: boolean): Promise<Float32Array> {
  if (useFlite) await run('flite', ['-voice', name, '--setf', `duration_stretch=${fast ? 0.62 : 1}`, '-t', text, '-o', file]);
  else await run('espeak-ng', ['-v', name, '-s', fast ? '250' : '155', '-w', file, text]);
  const samples = await readAudio(file);
  await rm(file);
  return samples;
}

async function styled(base: string, speech: Float32Array, style: Style, random: Random, rootHz: number, beat: number, high: boolean): Promise<Float32Array> {
  if (style === 'spoken' || style === 'rapped') return speech;
  if (style === 'bent') return bend(base, speech, random, beat);
  if (style === 'whispered' && random() < 0.5) return speech; // espeak's whisper voices are whispered already, flite's are vocoded below
  const melodyHz = rootHz * (high ? 4 : 2);
  return vocode(base, speech, random, style === 'whispered' ? undefined : melodyHz);
}

/** Speech slowed by sox and bent onto a melody: a bend to a new scale step every beat or so. */
async function bend(base: string, speech: Float32Array, random: Random, beat: number): Promise<Float32Array> {
  const input = `${base}-in.wav`;
  const output = `${base}-out.wav`;
  await writeWav(input, speech);
  const stretch = between(random, 0.65, 0.85);
  const seconds = speech.length / MIX_RATE / stretch;
  const bends: string[] = [];
  let cents = 0;
  let degree = 4;
  // sox's bends are (delay after the previous bend's end, cents, duration).
  let previousEnd = 0;
  for (let t = 0.05; t < seconds - 0.3; t += beat * pick(random, [0.5, 1, 1])) {
    degree = Math.max(0, Math.min(MINOR.length - 1, degree + Math.round(between(random, -2.4, 2.4))));
    const target = (MINOR[degree]! - 7) * 100;
    if (target === cents) continue; // sox refuses a bend of 0 cents
    bends.push(`${(t - previousEnd).toFixed(3)},${target - cents},0.06`);
    cents = target;
    previousEnd = t + 0.06;
    t += 0.06;
  }
  await run('sox', [input, output, 'tempo', '-s', stretch.toFixed(2), 'bend', ...bends]);
  const samples = await readAudio(output);
  await rm(input);
  await rm(output);
  return samples;
}

const LPC_RATE = 16_000;
const LPC_ORDER = 18;
const LPC_HOP = 160;
const LPC_FRAME = 400;

/**
 * An LPC vocoder: the speech's spectral envelope every 10 ms, resynthesised from a pulse train
 * on the notes of a melody (a new note on each voiced stretch, held and stretched 1.3-1.9x, with
 * vibrato) where the speech is voiced and from noise where it is not; from noise throughout when
 * `melodyHz` is undefined (a whisper).
 */
async function vocode(base: string, speech: Float32Array, random: Random, melodyHz: number | undefined): Promise<Float32Array> {
  const input = `${base}-in.wav`;
  await writeWav(input, speech);
  const x = await readAudio(input, LPC_RATE);
  await rm(input);
  const frames = Math.max(0, Math.floor((x.length - LPC_FRAME) / LPC_HOP));
  const coefficients: Float64Array[] = [];
  const gains: number[] = [];
  const voiced: boolean[] = [];
  const window = Float64Array.from({ length: LPC_FRAME }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (LPC_FRAME - 1)));
  const frame = new Float64Array(LPC_FRAME);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < LPC_FRAME; i++) frame[i] = x[f * LPC_HOP + i]! * window[i]!;
    const r = new Float64Array(LPC_ORDER + 1);
    for (let lag = 0; lag <= LPC_ORDER; lag++) for (let i = lag; i < LPC_FRAME; i++) r[lag]! += frame[i]! * frame[i - lag]!;
    r[0]! *= 1.0001;
    const { a, error } = levinson(r);
    coefficients.push(a);
    gains.push(Math.sqrt(Math.max(error, 0) / LPC_FRAME));
    // Voiced: a clear autocorrelation peak at a speaking pitch (60-400 Hz).
    let best = 0;
    for (let lag = Math.round(LPC_RATE / 400); lag <= LPC_RATE / 60; lag++) {
      let sum = 0;
      for (let i = lag; i < LPC_FRAME; i++) sum += frame[i]! * frame[i - lag]!;
      best = Math.max(best, sum / (r[0]! + 1e-12));
    }
    voiced.push(best > 0.3 && r[0]! > 1e-5);
  }
  // The output timeline: voiced frames stretched (a sung vowel is long), unvoiced ones not.
  const stretch = between(random, 1.3, 1.9);
  const timeline: number[] = [];
  for (let f = 0; f < frames; f++) {
    const copies = melodyHz !== undefined && voiced[f] ? stretch : 1;
    const from = timeline.length;
    while (timeline.length < from + copies - 1e-9 || timeline.length === from) timeline.push(f);
  }
  const out = new Float32Array(timeline.length * LPC_HOP);
  const memory = new Float64Array(LPC_ORDER);
  const vibratoHz = between(random, 4.5, 6.5);
  const vibratoDepth = between(random, 0.2, 0.6);
  let degree = 4;
  let hz = melodyHz ?? 0;
  let phase = 0;
  let wasVoiced = false;
  let n = 0;
  for (const f of timeline) {
    const isVoiced = melodyHz !== undefined && voiced[f]!;
    if (isVoiced && !wasVoiced && melodyHz !== undefined) {
      degree = Math.max(0, Math.min(MINOR.length - 1, degree + Math.round(between(random, -2.4, 2.4))));
      hz = melodyHz * 2 ** (MINOR[degree]! / 12);
    }
    wasVoiced = isVoiced;
    const a = coefficients[f]!;
    const gain = gains[f]!;
    for (let i = 0; i < LPC_HOP; i++, n++) {
      let excitation: number;
      if (isVoiced) {
        const period = LPC_RATE / (hz * 2 ** ((vibratoDepth / 12) * Math.sin((2 * Math.PI * vibratoHz * n) / LPC_RATE)));
        phase += 1 / period;
        excitation = 0;
        if (phase >= 1) {
          phase -= 1;
          excitation = Math.sqrt(period);
        }
      } else excitation = (random() * 2 - 1) * Math.sqrt(3);
      let y = gain * excitation;
      for (let k = 0; k < LPC_ORDER; k++) y -= a[k + 1]! * memory[k]!;
      memory.copyWithin(1, 0, LPC_ORDER - 1);
      memory[0] = y;
      out[n] = y;
    }
  }
  // Back to the mix rate through ffmpeg's resampler; a gentle de-emphasis is not needed (speech was not pre-emphasised).
  const output = `${base}-out.wav`;
  let peak = 1e-9;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  for (let i = 0; i < out.length; i++) out[i]! *= 0.8 / peak;
  await writeWav(output, out, LPC_RATE);
  const samples = await readAudio(output);
  await rm(output);
  return samples;
}

/** Levinson-Durbin: the prediction polynomial a[0..order] (a[0] = 1) and the residual energy. */
function levinson(r: Float64Array): { a: Float64Array; error: number } {
  const a = new Float64Array(LPC_ORDER + 1);
  a[0] = 1;
  let error = r[0]!;
  for (let i = 1; i <= LPC_ORDER; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = error > 0 ? -acc / error : 0;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = previous[j]! + k * previous[i - j]!;
    a[i] = k;
    error *= 1 - k * k;
  }
  return { a, error };
}

/** A rap's beat: the voice ducked a little between eighth notes (the flow sits on the grid). */
function gate(track: Float32Array, beat: number): void {
  const eighth = (beat / 2) * MIX_RATE;
  for (let i = 0; i < track.length; i++) track[i]! *= 0.55 + 0.45 * Math.exp(-(i % eighth) / (0.6 * eighth));
}

// ---- Music -----------------------------------------------------------------------------------

/** A sox one-shot (`sox -n` with `args` after the output) as samples. */
async function sox(file: string, args: string[]): Promise<Float32Array> {
  await run('sox', ['-n', '-r', String(MIX_RATE), '-c', '1', '-b', '16', file, ...args]);
  const samples = await readAudio(file);
  await rm(file);
  return samples;
}

function place(out: Float32Array, sound: Float32Array, at: number, gain: number): void {
  const start = Math.round(at * MIX_RATE);
  for (let i = 0; i < sound.length && start + i < out.length; i++) out[start + i]! += gain * sound[i]!;
}

async function makeMusic(base: string, random: Random, seconds: number, beat: number, rootHz: number, bed: Bed): Promise<Float32Array> {
  const out = new Float32Array(Math.round(seconds * MIX_RATE));
  const steps = [0, pick(random, [3, 5, 8]), pick(random, [5, 7, 10]), pick(random, [7, 10])];
  const roots = steps.map((step) => rootHz * 2 ** (step / 12));
  const bar = 4 * beat;
  const bars = Math.ceil(seconds / bar);
  const s = (n: string) => `${base}-${n}.wav`;
  if (bed === 'rock' || bed === 'drums') {
    const kick = await sox(s('kick'), ['synth', '0.4', 'sine', `${between(random, 130, 180).toFixed(0)}:45`, 'fade', 'q', '0.002', '0.4', '0.35']);
    const snare = await sox(s('snare'), ['synth', '0.25', 'noise', 'lowpass', '7000', 'highpass', '250', 'fade', 'q', '0.001', '0.25', '0.23']);
    const hat = await sox(s('hat'), ['synth', '0.07', 'noise', 'highpass', '6500', 'fade', 'q', '0.001', '0.07', '0.065']);
    const crash = await sox(s('crash'), ['synth', '1.6', 'noise', 'highpass', '3500', 'fade', 'q', '0.002', '1.6', '1.55']);
    const busy = random() < 0.5;
    for (let b = 0; b < bars; b++) {
      const t = b * bar;
      if (b % 4 === 0) place(out, crash, t, 0.35);
      for (let e = 0; e < 8; e++) {
        const at = t + (e * beat) / 2;
        place(out, hat, at, e % 2 === 0 ? 0.35 : 0.22);
        if (e === 0 || e === 5 || (busy && e === 3)) place(out, kick, at, 0.95);
        if (e === 2 || e === 6) place(out, snare, at, 0.6);
      }
      if (b % 4 === 3) for (let e = 0; e < 4; e++) place(out, snare, t + 3 * beat + (e * beat) / 4, 0.3 + 0.1 * e);
    }
  }
  if (bed !== 'pad' && bed !== 'ambient') {
    const bass = await Promise.all(
      roots.map((hz, n) =>
        sox(s(`bass${n}`), [
          'synth',
          (beat * 0.9).toFixed(3),
          'square',
          (hz / 2).toFixed(2),
          'lowpass',
          '500',
          'fade',
          'q',
          '0.005',
          (beat * 0.9).toFixed(3),
          '0.1',
        ]),
      ),
    );
    for (let b = 0; b < bars; b++) for (let q = 0; q < 4; q++) place(out, bass[b % 4]!, b * bar + q * beat, 0.3);
  }
  if (bed === 'rock') {
    const muted = random() < 0.5;
    const length = muted ? beat / 2 : bar;
    const guitar = await Promise.all(
      roots.map((hz, n) =>
        sox(s(`gtr${n}`), [
          'synth',
          length.toFixed(3),
          'sawtooth',
          hz.toFixed(2),
          'sawtooth',
          (hz * 1.5).toFixed(2),
          'sawtooth',
          (hz * 2).toFixed(2),
          'remix',
          '-',
          'overdrive',
          String(Math.round(between(random, 15, 35))),
          '10',
          'lowpass',
          '3800',
          'fade',
          'q',
          '0.004',
          length.toFixed(3),
          muted ? '0.15' : '0.05',
          'gain',
          '-n',
          '-3',
        ]),
      ),
    );
    for (let b = 0; b < bars; b++) {
      if (muted) for (let e = 0; e < 8; e++) place(out, guitar[b % 4]!, b * bar + (e * beat) / 2, 0.5);
      else place(out, guitar[b % 4]!, b * bar, 0.5);
    }
  }
  if (bed === 'pad' || bed === 'piano' || bed === 'ambient') {
    const pad = await Promise.all(
      roots.map((hz, n) =>
        sox(s(`pad${n}`), [
          'synth',
          (bar + 0.3).toFixed(3),
          'triangle',
          (hz * 2).toFixed(2),
          'triangle',
          (hz * 2 * 2 ** (3 / 12)).toFixed(2),
          'triangle',
          (hz * 3).toFixed(2),
          'remix',
          '-',
          'lowpass',
          '1200',
          'tremolo',
          '0.3',
          '15',
          'fade',
          'q',
          '0.3',
          (bar + 0.3).toFixed(3),
          '0.3',
        ]),
      ),
    );
    for (let b = 0; b < bars; b++) place(out, pad[b % 4]!, b * bar, bed === 'pad' ? 0.12 : 0.08);
  }
  if (bed === 'piano') {
    const shape = [0, 3, 7, 12, 15, 12, 7, 3];
    const notes = new Map<string, Float32Array>();
    for (let b = 0; b < bars; b++)
      for (let e = 0; e < 8; e++) {
        const hz = roots[b % 4]! * 2 * 2 ** (shape[e]! / 12);
        const key = hz.toFixed(1);
        if (!notes.has(key)) notes.set(key, await sox(s(`pl${notes.size}`), ['synth', '1.2', 'pluck', key, 'fade', 'q', '0', '1.2', '0.4']));
        place(out, notes.get(key)!, b * bar + (e * beat) / 2, 0.3);
      }
  }
  if (bed === 'chords') {
    const chords = await Promise.all(
      roots.map((hz, n) =>
        sox(s(`ch${n}`), [
          'synth',
          '1.5',
          'pluck',
          (hz * 2).toFixed(2),
          'pluck',
          (hz * 2 * 2 ** (3 / 12)).toFixed(2),
          'pluck',
          (hz * 3).toFixed(2),
          'pluck',
          (hz * 4).toFixed(2),
          'remix',
          '-',
          'fade',
          'q',
          '0',
          '1.5',
          '0.5',
        ]),
      ),
    );
    for (let b = 0; b < bars; b++) for (const q of [0, 1.5, 2, 3]) place(out, chords[b % 4]!, b * bar + q * beat, 0.35);
  }
  if (bed === 'ambient') {
    const noise = await sox(s('amb'), [
      'synth',
      String(seconds),
      'pinknoise',
      'band',
      String(Math.round(between(random, 400, 1600))),
      '500',
      'tremolo',
      between(random, 0.1, 0.4).toFixed(2),
      '60',
      'reverb',
      '80',
    ]);
    place(out, noise, 0, 0.5);
  }
  return out;
}

/** A melody on the minor scale: notes of 1/4 to 1 bar, legato, rests now and then. */
function melody(random: Random, beat: number, seconds: number, rootHz: number): { start: number; end: number; hz: number }[] {
  const notes: { start: number; end: number; hz: number }[] = [];
  let degree = 4;
  for (let t = between(random, 0.2, 1); t < seconds - 0.3;) {
    const length = pick(random, [1, 1, 2, 3, 4]) * beat;
    if (random() < 0.1) {
      t += beat;
      continue;
    }
    degree = Math.max(0, Math.min(MINOR.length - 1, degree + Math.round(between(random, -2.5, 2.5))));
    notes.push({ start: t, end: Math.min(seconds, t + length), hz: rootHz * 2 ** (MINOR[degree]! / 12) });
    t += length;
  }
  return notes;
}

/** A two-pole resonator (band-pass, unit peak gain) at `hz` with quality `q`. */
function resonator(hz: number, q: number): (x: number) => number {
  const w = (2 * Math.PI * hz) / MIX_RATE;
  const r = 1 - w / (2 * q);
  const a1 = -2 * r * Math.cos(w);
  const a2 = r * r;
  const scale = 1 - r;
  let y1 = 0;
  let y2 = 0;
  return (x) => {
    const y = scale * x - a1 * y1 - a2 * y2;
    y2 = y1;
    y1 = y;
    return y;
  };
}

function addLead(out: Float32Array, random: Random, lead: Exclude<Lead, 'none'>, beat: number, rootHz: number, gain: number): void {
  const notes = melody(random, beat, out.length / MIX_RATE, rootHz * (lead === 'flute' ? 8 : 4));
  const glide = lead === 'synth' ? between(random, 0.04, 0.15) : lead === 'violin' ? 0.03 : 0.015;
  const vibratoHz = between(random, 4.8, 6.8);
  const depthSemitones = lead === 'synth' ? between(random, 0.2, 0.8) : lead === 'violin' ? between(random, 0.25, 0.6) : between(random, 0.1, 0.3);
  const body = [280, 460, 1050, 2300, 3200].map((hz) => resonator(hz * between(random, 0.9, 1.1), between(random, 4, 9)));
  const sweep = lead === 'synth' && random() < 0.6;
  let phase = 0;
  let pulse = 0;
  let hz = notes[0]?.hz ?? rootHz;
  let low = 0;
  let breath = 0;
  let note = 0;
  let level = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / MIX_RATE;
    while (note < notes.length - 1 && notes[note + 1]!.start <= t) note++;
    const current = notes[note];
    const sounding = current !== undefined && t >= current.start && t < current.end;
    level += ((sounding ? 1 : 0) - level) * (sounding ? 0.002 : 0.0005);
    if (level < 1e-4 && !sounding) continue;
    const age = current ? t - current.start : 0;
    if (current) hz *= (current.hz / hz) ** (1 / (glide * MIX_RATE)); // exponential portamento
    const vibrato = 2 ** ((depthSemitones / 12) * Math.min(1, age / 0.35) * Math.sin(2 * Math.PI * vibratoHz * t));
    phase += (hz * vibrato) / MIX_RATE;
    pulse += (hz * vibrato * 1.003) / MIX_RATE;
    let value: number;
    if (lead === 'synth') {
      const width = 0.5 + 0.3 * Math.sin(2 * Math.PI * 0.7 * t);
      const raw = 0.5 * (2 * (phase % 1) - 1) + 0.5 * (pulse % 1 < width ? 1 : -1);
      const cutoff = sweep ? 0.03 + 0.25 * Math.exp(-age * 4) : 0.15;
      low += cutoff * (raw - low);
      value = low;
    } else if (lead === 'violin') {
      breath += 0.5 * (random() * 2 - 1 - breath);
      const excitation = 2 * (phase % 1) - 1 + 0.05 * breath;
      value = 0;
      for (const band of body) value += band(excitation);
      value *= 1.5;
    } else {
      breath += 0.25 * (random() * 2 - 1 - breath);
      value = Math.sin(2 * Math.PI * phase) + 0.25 * Math.sin(4 * Math.PI * phase) + 0.08 * Math.sin(6 * Math.PI * phase) + 0.2 * breath;
    }
    out[i]! += gain * level * value;
  }
}
