/**
 * The evaluation's second labelled library, built unlike the first (which ffmpeg expressions and
 * one espeak voice make): the music is synthesised here sample by sample (plucked strings by
 * Karplus-Strong, bowed "violin" and square synth leads with vibrato, FM bells, pads, distorted
 * power chords, drum kits by genre) over chord progressions; the voices are formant-sung
 * melodies with vibrato, rapped, spoken and whispered espeak-ng voices in English, Hebrew and
 * Spanish, some quiet under loud music; the files are MP3 at 64 and 192 kbit/s, AAC, Opus and
 * FLAC. Genres Ambient, Hip-Hop, Classical, Pop and Metal of the 1960s, 70s, 2000s and 2020s;
 * lyrics with themes (the sea, love, leaving home, the city). NOTHING is tuned on it: it tells
 * whether what was tuned on the first library holds on music it has not seen.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SongSpec } from './analysed-library.js';

const run = promisify(execFile);
const RATE = 44_100;
const SECONDS = 20;
const COUNT = 48;

export type Genre = 'Ambient' | 'Hip-Hop' | 'Classical' | 'Pop' | 'Metal';
export type Voice = 'none' | 'sung' | 'rap' | 'spoken' | 'whisper';
export type Theme = 'sea' | 'love' | 'leaving home' | 'city' | null;

export interface LabelsB {
  fast: boolean;
  loud: boolean;
  major: boolean;
  bright: boolean;
  voice: Voice;
  vocals: boolean;
  /** The voice sits well under the music. */
  quietVoice: boolean;
  /** A melodic instrumental lead (violin or synth) that is not a voice. */
  lead: 'none' | 'violin' | 'synth';
  genre: Genre;
  year: number;
  bpm: number;
  theme: Theme;
  language: 'en' | 'he' | 'es';
  lyrics: string | null;
  codec: 'mp3-64' | 'mp3-192' | 'aac' | 'opus' | 'flac';
}

const GENRES: Genre[] = ['Ambient', 'Hip-Hop', 'Classical', 'Pop', 'Metal'];
const DECADES = [1960, 1970, 2000, 2020];
const CODECS: LabelsB['codec'][] = ['mp3-64', 'mp3-192', 'aac', 'opus', 'flac'];
const VOICES: Voice[] = ['sung', 'rap', 'spoken', 'whisper', 'sung'];

const LYRICS: Record<Exclude<Theme, null> | 'other', Record<'en' | 'he' | 'es', string>> = {
  sea: {
    en: 'The ocean waves are calling me, I sail across the endless sea, the tide will carry me back to the shore',
    he: 'הגלים של הים קוראים לי, אני שט אל החוף, הרוח בים לוקחת אותי',
    es: 'Las olas del mar me llaman, navego por el mar sin fin',
  },
  love: {
    en: 'I love you more than words can say, my darling, kiss me, stay with me forever, my heart is yours',
    he: 'אני אוהב אותך, אהבה שלי, תישארי איתי לתמיד',
    es: 'Te quiero mi amor, mi corazón es tuyo para siempre',
  },
  'leaving home': {
    en: 'I packed my bags and left the house where I grew up, goodbye to my hometown, I am leaving home tonight',
    he: 'עזבתי את הבית שבו גדלתי, שלום לעיר שלי, אני עוזב הלילה',
    es: 'Dejé mi casa y mi pueblo, me voy lejos esta noche',
  },
  city: {
    en: 'Neon lights in the city streets, the traffic hums below my feet, another restless night downtown',
    he: 'אורות העיר ברחובות, התנועה זורמת מתחת לרגליים',
    es: 'Luces de neón en las calles de la ciudad',
  },
  other: {
    en: 'Walking through the forest green, the mountains high, the meadow clean, I count the birds and sing',
    he: 'הולך ביער הירוק, ההרים גבוהים, אני סופר ציפורים',
    es: 'Camino por el bosque verde, las montañas altas',
  },
};

/** Labels drawn with a fixed seed (another seed and other draws than the first library's). */
function drawLabels(): LabelsB[] {
  let seed = 20_260_417;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const themes: Theme[] = ['sea', 'love', 'leaving home', 'city', null];
  let voiced = 0;
  return Array.from({ length: COUNT }, (_, index) => {
    const fast = random() < 0.5;
    const loud = random() < 0.5;
    const major = random() < 0.5;
    const bright = random() < 0.5;
    const hasVoice = random() < 0.55;
    const voice: Voice = hasVoice ? VOICES[voiced % VOICES.length]! : 'none';
    const theme = hasVoice ? themes[voiced % themes.length]! : null;
    const language: LabelsB['language'] = hasVoice && voice !== 'whisper' && voiced % 7 === 3 ? 'he' : hasVoice && voiced % 11 === 5 ? 'es' : 'en';
    if (hasVoice) voiced++;
    const genre = GENRES[Math.floor(random() * GENRES.length)]!;
    const decade = DECADES[Math.floor(random() * DECADES.length)]!;
    const lead: LabelsB['lead'] = random() < 0.5 ? (random() < 0.5 ? 'violin' : 'synth') : 'none';
    const bpm = Math.round(fast ? 120 + random() * 52 : 54 + random() * 34);
    const spanishTheme = language === 'es' ? null : theme; // the Spanish lyrics' words are not matched by English or Hebrew themes
    return {
      fast,
      loud,
      major,
      bright,
      voice,
      vocals: voice !== 'none',
      quietVoice: hasVoice && loud && random() < 0.35,
      lead,
      genre,
      year: decade + Math.floor(random() * 10),
      bpm,
      theme: spanishTheme,
      language,
      lyrics: hasVoice ? LYRICS[theme ?? 'other'][language] : null,
      codec: CODECS[index % CODECS.length]!,
    };
  });
}

// ---- synthesis ---------------------------------------------------------------------------

type Buffer32 = Float32Array;
const TWO_PI = 2 * Math.PI;
const semitone = (root: number, steps: number) => root * Math.pow(2, steps / 12);

/**
 * Chord roots of four bars (semitones from the key's root) and whether each chord is minor:
 * I-IV-I-V in major, i-iv-i-V in minor (the harmonic minor's major dominant), so that a minor
 * song is not its relative major's chords in another order (C-G-Am-F and Am-F-C-G are the same
 * notes: no one could tell their mode).
 */
function progression(major: boolean): [number, boolean][] {
  return major
    ? [
        [0, false],
        [5, false],
        [0, false],
        [7, false],
      ]
    : [
        [0, true],
        [5, true],
        [0, true],
        [7, false],
      ];
}

function chordAt(time: number, bar: number, major: boolean, root: number): number[] {
  const chords = progression(major);
  const [offset, minor] = chords[Math.floor(time / bar) % chords.length]!;
  const base = semitone(root, offset);
  return [base, semitone(base, minor ? 3 : 4), semitone(base, 7)];
}

function pluck(out: Buffer32, start: number, frequency: number, gain: number, seconds: number, random: () => number): void {
  const period = Math.max(2, Math.round(RATE / frequency));
  const ring = new Float32Array(period).map(() => random() * 2 - 1);
  const length = Math.min(out.length - start, Math.round(seconds * RATE));
  for (let i = 0; i < length; i++) {
    const j = i % period;
    const next = (j + 1) % period;
    const value = ring[j]!;
    ring[j] = 0.996 * 0.5 * (value + ring[next]!);
    out[start + i]! += gain * value;
  }
}

function tone(
  out: Buffer32,
  start: number,
  seconds: number,
  gain: number,
  wave: (phase: number, t: number) => number,
  frequency: (t: number) => number,
  attack = 0.01,
  release = 0.08,
): void {
  const length = Math.min(out.length - start, Math.round(seconds * RATE));
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    phase += (TWO_PI * frequency(t)) / RATE;
    const envelope = Math.min(1, t / attack) * Math.min(1, (seconds - t) / release);
    out[start + i]! += gain * envelope * wave(phase, t);
  }
}

const saw = (phase: number) => ((phase / Math.PI) % 2) - 1;
const square = (phase: number) => (Math.sin(phase) >= 0 ? 1 : -1);

function drum(out: Buffer32, start: number, kind: 'kick' | 'snare' | 'hat' | 'clap', gain: number, random: () => number): void {
  const seconds = kind === 'kick' ? 0.35 : kind === 'hat' ? 0.06 : 0.2;
  const length = Math.min(out.length - start, Math.round(seconds * RATE));
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    let value: number;
    if (kind === 'kick') {
      phase += (TWO_PI * (50 + 90 * Math.exp(-t * 30))) / RATE;
      value = Math.sin(phase) * Math.exp(-t * 9);
    } else if (kind === 'hat') value = (random() * 2 - 1) * Math.exp(-t * 70) * (i % 2 === 0 ? 1 : -1);
    else if (kind === 'clap') value = (random() * 2 - 1) * Math.exp(-t * 25) * (t < 0.03 ? 1.4 : 1);
    else value = 0.6 * (random() * 2 - 1) * Math.exp(-t * 18) + 0.4 * Math.sin(TWO_PI * 190 * t) * Math.exp(-t * 20);
    out[start + i]! += gain * value;
  }
}

function lowpass(signal: Buffer32, cutoff: number): void {
  const alpha = 1 - Math.exp((-TWO_PI * cutoff) / RATE);
  let state = 0;
  for (let pass = 0; pass < 2; pass++) {
    state = 0;
    for (let i = 0; i < signal.length; i++) {
      state += alpha * (signal[i]! - state);
      signal[i] = state;
    }
  }
}

/** The instruments of a song (no voice): its genre's kit and sound over the chord progression. */
function music(labels: LabelsB, index: number): Buffer32 {
  let seed = 1_000 + index * 7919;
  const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const out = new Float32Array(SECONDS * RATE);
  const beat = 60 / labels.bpm;
  const bar = 4 * beat;
  const root = [110, 123.47, 130.81, 146.83, 164.81][index % 5]!;
  const beats = Math.floor(SECONDS / beat);
  for (let b = 0; b < beats; b++) {
    const time = b * beat;
    const at = Math.round(time * RATE);
    const chord = chordAt(time, bar, labels.major, root);
    const inBar = b % 4;
    switch (labels.genre) {
      case 'Classical':
        for (let n = 0; n < 2; n++) pluck(out, at + Math.round((n * beat * RATE) / 2), chord[(b * 2 + n) % 3]! * 2, 0.35, beat * 1.5, random);
        if (inBar === 0) for (const note of chord) tone(out, at, bar, 0.05, saw, () => note, 0.4, 0.4);
        break;
      case 'Ambient':
        if (inBar === 0)
          for (const note of chord)
            tone(
              out,
              at,
              bar * 1.1,
              0.09,
              (phase) => Math.sin(phase) + 0.3 * Math.sin(2 * phase),
              () => note,
              bar * 0.4,
              bar * 0.4,
            );
        if (b % 3 === 0)
          tone(
            out,
            at,
            beat * 2,
            0.06,
            (phase, t) => Math.sin(phase + 2 * Math.sin(phase * 3.5) * Math.exp(-t * 3)),
            () => chord[b % 3]! * 4,
            0.005,
            beat,
          );
        break;
      case 'Hip-Hop':
        drum(out, at, inBar === 0 || inBar === 2 ? 'kick' : 'snare', 0.8, random);
        if (inBar === 1) drum(out, at + Math.round(beat * 0.75 * RATE), 'kick', 0.5, random);
        tone(out, at, beat * 0.9, 0.3, Math.sin, () => chord[0]! / 2);
        if (inBar === 0)
          for (const note of chord)
            tone(
              out,
              at,
              bar,
              0.05,
              (phase) => Math.sin(phase) + 0.2 * Math.sin(3 * phase),
              () => note * 2,
              0.02,
              0.3,
            );
        break;
      case 'Pop':
        drum(out, at, 'kick', 0.7, random);
        if (inBar % 2 === 1) drum(out, at, 'clap', 0.45, random);
        for (const note of chord) tone(out, at + Math.round(beat * 0.5 * RATE), beat * 0.4, 0.07, saw, () => note * 2);
        tone(out, at, beat * 0.5, 0.25, Math.sin, () => chord[0]! / 2);
        break;
      case 'Metal':
        drum(out, at, 'kick', 0.8, random);
        if (labels.fast) drum(out, at + Math.round(beat * 0.5 * RATE), 'kick', 0.6, random);
        if (inBar % 2 === 1) drum(out, at, 'snare', 0.7, random);
        for (let n = 0; n < 2; n++)
          tone(
            out,
            at + Math.round((n * beat * RATE) / 2),
            beat * 0.48,
            0.35,
            (phase) => Math.tanh(6 * (saw(phase) + saw(phase * 1.4983))),
            () => chord[0]!,
          );
        break;
    }
    if (labels.bright && labels.genre !== 'Ambient' && labels.genre !== 'Classical') {
      for (let n = 0; n < 2; n++) drum(out, at + Math.round((n * beat * RATE) / 2), 'hat', 0.25, random);
    } else if (labels.bright)
      tone(
        out,
        at,
        beat * 0.3,
        0.03,
        (phase) => Math.sin(phase) * Math.sin(phase * 1.5),
        () => chord[1]! * 8,
        0.002,
        0.2,
      );
  }
  // A melodic lead (not a voice): a bowed violin or a square synth with vibrato, a note every two beats.
  if (labels.lead !== 'none') {
    for (let b = 0; b + 2 <= beats; b += 2) {
      const time = b * beat;
      const chord = chordAt(time, bar, labels.major, root);
      const note = chord[(b / 2) % 3]! * 4;
      const wave = labels.lead === 'violin' ? (phase: number) => 0.7 * saw(phase) + 0.3 * Math.sin(2 * phase) : square;
      tone(
        out,
        Math.round(time * RATE),
        beat * 1.9,
        labels.lead === 'violin' ? 0.12 : 0.07,
        wave,
        (t) => note * (1 + 0.012 * Math.sin(TWO_PI * 5.8 * t) * Math.min(1, t * 4)),
        0.06,
        0.1,
      );
    }
  }
  if (!labels.bright) lowpass(out, 1200);
  return out;
}

/** Formant frequencies (F1, F2, F3) of five vowels. */
const VOWELS = [
  [800, 1200, 2500],
  [400, 2000, 2600],
  [300, 2300, 3000],
  [500, 900, 2400],
  [350, 800, 2300],
];

/**
 * A sung line without an engine: a glottal pulse train on the melody's notes with vibrato,
 * through three formant resonators whose vowel changes with each syllable, consonant bursts of
 * noise between syllables; a syllable per beat or half beat.
 */
function sing(labels: LabelsB, index: number): Buffer32 {
  let seed = 77 + index * 104_729;
  const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const out = new Float32Array(SECONDS * RATE);
  const beat = 60 / labels.bpm;
  const syllable = labels.fast ? beat : beat / 2;
  const root = [220, 246.94, 261.63, 293.66, 329.63][index % 5]! * (index % 2 === 0 ? 1 : 0.5);
  const resonators = VOWELS[0]!.map(() => ({ y1: 0, y2: 0 }));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const s = Math.floor(t / syllable);
    const within = t - s * syllable;
    const chord = chordAt(t, beat * 4, labels.major, root);
    const pitch = chord[s % 3]! * (1 + 0.03 * Math.sin(TWO_PI * 5.5 * t) * Math.min(1, within * 5));
    phase += pitch / RATE;
    const pulse = phase % 1 < 0.4 ? Math.sin((Math.PI * (phase % 1)) / 0.4) : 0;
    const vowel = VOWELS[(s * 3 + index) % VOWELS.length]!;
    const consonant = within < 0.04 ? (random() * 2 - 1) * 0.5 : 0;
    let value = 0;
    vowel.forEach((formant, f) => {
      const r = Math.exp((-Math.PI * 90) / RATE);
      const c = 2 * r * Math.cos((TWO_PI * formant) / RATE);
      const state = resonators[f]!;
      const y = (1 - r) * (pulse - 0.5 + consonant) + c * state.y1 - r * r * state.y2;
      state.y2 = state.y1;
      state.y1 = y;
      value += y / (f + 1);
    });
    const envelope = Math.min(1, within / 0.03) * Math.min(1, (syllable - within) / 0.05);
    out[i] = value * envelope * 4;
  }
  return out;
}

async function speak(dir: string, labels: LabelsB, index: number): Promise<Buffer32> {
  const file = path.join(dir, `voice-b-${index}.wav`);
  const voice =
    labels.language === 'he' ? 'he' : labels.language === 'es' ? 'es' : labels.voice === 'whisper' ? 'en+whisper' : index % 2 === 0 ? 'en-us+f3' : 'en+m3';
  const speed = labels.voice === 'rap' ? 215 : 140;
  await run('espeak-ng', ['-v', voice, '-s', String(speed), '-p', String(labels.voice === 'rap' ? 35 : 55), '-w', file, labels.lyrics ?? '']);
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 27,
  });
  const speech = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.byteLength));
  const out = new Float32Array(SECONDS * RATE);
  // The voice from 2 s on, looped with a second's pause, leaving the last 2 s to the music.
  for (let start = 2 * RATE; start < out.length - 2 * RATE; start += speech.length + RATE) {
    for (let i = 0; i < speech.length && start + i < out.length - 2 * RATE; i++) out[start + i] = speech[i]!;
  }
  return out;
}

function peak(signal: Buffer32): number {
  let max = 0;
  for (const value of signal) max = Math.max(max, Math.abs(value));
  return max || 1;
}

async function synthesise(dir: string, labels: LabelsB, index: number): Promise<string> {
  const mix = music(labels, index);
  const musicPeak = peak(mix);
  for (let i = 0; i < mix.length; i++) mix[i] = mix[i]! / musicPeak;
  if (labels.voice !== 'none') {
    const voice = labels.voice === 'sung' ? sing(labels, index) : await speak(dir, labels, index);
    const level = (labels.quietVoice ? 0.18 : 0.7) / peak(voice);
    for (let i = 0; i < mix.length; i++) mix[i]! += voice[i]! * level;
  }
  const gain = labels.loud ? 0.95 : 0.05;
  const mixPeak = peak(mix);
  const pcm = Buffer.alloc(mix.length * 2);
  for (let i = 0; i < mix.length; i++) {
    // Loud songs are pushed into soft clipping as masters are; quiet ones are scaled down.
    const value = labels.loud ? Math.tanh((2.2 * mix[i]!) / mixPeak) / Math.tanh(2.2) : mix[i]! / mixPeak;
    pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value * gain)) * 32_767), i * 2);
  }
  const raw = path.join(dir, `song-b-${index}.pcm`);
  await writeFile(raw, pcm);
  const [extension, codec] = {
    'mp3-64': ['mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
    'mp3-192': ['mp3', ['-c:a', 'libmp3lame', '-b:a', '192k']],
    aac: ['m4a', ['-c:a', 'aac', '-b:a', '96k']],
    opus: ['ogg', ['-c:a', 'libopus', '-b:a', '48k']],
    flac: ['flac', ['-c:a', 'flac']],
  }[labels.codec] as [string, string[]];
  const file = path.join(dir, `song-b-${index}.${extension}`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', raw, ...codec, file]);
  await readFile(file); // fails here if the encoder wrote nothing
  return file;
}

export const LIBRARY_B: SongSpec<LabelsB>[] = drawLabels().map((labels, index) => ({ labels, synthesise: (dir) => synthesise(dir, labels, index) }));
