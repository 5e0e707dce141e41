/**
 * Labelled vocal set A (the one the detector is tuned on). Music synthesised sample by sample
 * here (drums, bass, saw pads, Karplus-Strong plucks; leads: a synth lead with LFO vibrato, a
 * flute-like sine with breath noise, a violin-like sawtooth with delayed vibrato through a
 * plain low-pass, an overdriven guitar-like square with bends, an electric piano with tremolo,
 * a drawbar organ through a rotary speaker: amplitude and slight pitch modulation); voices
 * from espeak-ng in several voices and languages, spoken, rapped (fast and rhythmic) or sung
 * (SSML pitch on a melody, a note a word or a note a syllable, slow, flat intonation, then
 * ffmpeg's vibrato); the voice at -3..-20 dB under the music; WAV, 128 and 64 kbit/s MP3,
 * 32 kbit/s Opus.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { between, encode, inPool, layPhrases, mix, MIX_RATE, pick, readAudio, run, seeded, writeWav, type Clip, type Codec, type Random } from './audio-kit.js';

const TEXTS = [
  'I walked along the river in the morning light and sang about the city and the sea',
  'Hold on to me tonight the stars are falling down and we are dancing in the rain',
  'Nobody knows the way back home the road is long and the night is cold',
  'Every little thing you say is running round my head again today',
  'We are the ones who never sleep we keep the fire burning deep',
  'Tell me why the summer ends so soon and leaves me waiting for the moon',
];
const FOREIGN: Record<string, string> = {
  de: 'Ich gehe durch die Stadt und denke nur an dich in dieser langen Nacht',
  es: 'Camino por la calle y pienso en ti bajo la luna de verano',
  fr: 'Je marche dans la rue et je pense à toi sous la pluie du soir',
  it: 'Cammino per la strada e penso a te sotto la luna di questa notte',
};
const ENGLISH_VOICES = ['en-us', 'en+f3', 'en+m3', 'en-us+f4', 'en+m7', 'en-gb-x-rp+f2'];
const LEADS = ['synth', 'flute', 'violin', 'guitar', 'epiano', 'organ'] as const;
type Lead = (typeof LEADS)[number] | 'none';
const CODECS: Codec[] = ['wav', 'mp3-128', 'mp3-64', 'opus-32'];
const SCALE = [0, 2, 4, 7, 9, 12, 14, 16];

export async function buildSetA(dir: string, count: number, seconds: number): Promise<Clip[]> {
  await mkdir(dir, { recursive: true });
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    2,
    (index) => makeClip(dir, index, seconds),
  );
}

async function makeClip(dir: string, index: number, seconds: number): Promise<Clip> {
  const random = seeded(1000 + index);
  const voice = index % 2 === 0;
  const bpm = Math.round(between(random, 80, 150));
  const rootHz = between(random, 98, 165);
  const lead: Lead = voice ? (random() < 0.35 ? pick(random, LEADS) : 'none') : random() < 0.8 ? pick(random, LEADS) : 'none';
  const bed = pick(random, ['band', 'plucks', 'pad', 'drums'] as const);
  const music = makeMusic(random, seconds, bpm, rootHz, bed, lead, voice);
  const codec = CODECS[Math.floor(index / 2) % CODECS.length]!;
  const base = path.join(dir, `a-${String(index).padStart(3, '0')}`);
  let description = `${bed} bed, ${lead} lead, ${bpm} BPM, ${codec}`;
  let voiceTrack: Float32Array | undefined;
  let voiceDb = 0;
  if (voice) {
    const style = pick(random, ['spoken', 'rapped', 'sung', 'sung', 'syllabic'] as const);
    const language = random() < 0.3 ? pick(random, Object.keys(FOREIGN)) : 'en';
    const name = language === 'en' ? pick(random, ENGLISH_VOICES) : random() < 0.5 ? language : `${language}+f3`;
    const texts = language === 'en' ? [pick(random, TEXTS), pick(random, TEXTS)] : [FOREIGN[language]!];
    const phrases: Float32Array[] = [];
    for (const [n, text] of texts.entries()) phrases.push(await speak(`${base}-v${n}.wav`, name, text, style, random, rootHz));
    voiceTrack = layPhrases(phrases, seconds, random, between(random, 0.5, 4), style === 'sung' ? [0.3, 1.5] : [0.4, 2.5]);
    voiceDb = -3 - random() * 17;
    description = `${style === 'syllabic' ? 'sung (a note a syllable)' : style} ${name} at ${voiceDb.toFixed(0)} dB, ${description}`;
  }
  const wav = `${base}-mix.wav`;
  await writeWav(wav, mix(music, voiceTrack, voiceDb));
  const file = codec === 'wav' ? wav : await encode(wav, base, codec);
  if (codec !== 'wav') await rm(wav);
  return { file, voice, description, ...(voice ? { voiceDb } : {}) };
}

type Style = 'spoken' | 'rapped' | 'sung' | 'syllabic';

/** A word cut into rough syllables (before each consonant that follows a vowel and precedes one): "tonight" → "to", "night". */
function syllables(word: string): string[] {
  return word.split(/(?<=[aeiouy])(?=[^aeiouy][aeiouy])/iu).filter((part) => part.length > 0);
}

/**
 * espeak-ng in `style`. sung: each word on a note of a melody over `rootHz` (held through its
 * syllables), then vibrato; syllabic: each syllable on its own note, as most songs are set.
 */
async function speak(file: string, name: string, text: string, style: Style, random: Random, rootHz: number): Promise<Float32Array> {
  const pitch = String(Math.round(between(random, 25, 75)));
  if (style === 'spoken') await run('espeak-ng', ['-v', name, '-s', String(Math.round(between(random, 140, 180))), '-p', pitch, '-w', file, text]);
  else if (style === 'rapped')
    await run('espeak-ng', ['-v', name, '-s', String(Math.round(between(random, 210, 260))), '-g', '1', '-p', pitch, '-w', file, text]);
  else {
    const octave = name.includes('+f') ? 4 : 2;
    let degree = Math.floor(random() * 4);
    const units = style === 'syllabic' ? text.split(/\s+/u).flatMap(syllables) : text.split(/\s+/u);
    const words = units.map((word) => {
      degree = Math.max(0, Math.min(SCALE.length - 1, degree + Math.round(between(random, -2, 2))));
      const hz = rootHz * octave * 2 ** (SCALE[degree]! / 12);
      return `<prosody pitch="${Math.round(hz)}Hz" range="x-low" rate="${pick(random, ['x-slow', 'slow'])}">${word}</prosody>`;
    });
    const raw = `${file}.raw.wav`;
    await run('espeak-ng', ['-m', '-v', name, '-w', raw, `<speak>${words.join(' ')}</speak>`]);
    const depth = between(random, 0.1, 0.35).toFixed(2);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', raw, '-af', `vibrato=f=${between(random, 4.8, 6.5).toFixed(2)}:d=${depth}`, file]);
    await rm(raw);
  }
  const samples = await readAudio(file);
  await rm(file);
  return samples;
}

type Bed = 'band' | 'plucks' | 'pad' | 'drums';

function makeMusic(random: Random, seconds: number, bpm: number, rootHz: number, bed: Bed, lead: Lead, voice: boolean): Float32Array {
  const out = new Float32Array(Math.round(seconds * MIX_RATE));
  const beat = 60 / bpm;
  const progression = [0, pick(random, [5, 7, 9]), pick(random, [3, 5, 8]), 7].map((step) => rootHz * 2 ** (step / 12));
  const chordAt = (t: number) => progression[Math.floor(t / (4 * beat)) % progression.length]!;
  if (bed === 'band' || bed === 'drums') addDrums(out, random, beat, bed === 'drums' ? 1 : 0.8);
  if (bed !== 'pad') addBass(out, beat, chordAt, 0.35);
  if (bed === 'band' || bed === 'pad') addPad(out, random, chordAt, bed === 'pad' ? 0.35 : 0.2);
  if (bed === 'plucks') addPlucks(out, random, beat, chordAt, 0.3);
  if (lead !== 'none') addLead(out, random, lead, beat, rootHz, voice ? 0.2 : between(random, 0.25, 0.5));
  return out;
}

function addDrums(out: Float32Array, random: Random, beat: number, gain: number): void {
  const hatEvery = random() < 0.5 ? beat / 2 : beat / 4;
  for (let t = 0; t < out.length / MIX_RATE; t += hatEvery) {
    const start = Math.round(t * MIX_RATE);
    const inBar = Math.round((t / beat) * 4) % 16;
    let previous = 0;
    for (let i = 0; i < 0.05 * MIX_RATE && start + i < out.length; i++) {
      const noise = random() * 2 - 1;
      out[start + i]! += gain * 0.12 * (noise - previous) * Math.exp(-i / (0.012 * MIX_RATE));
      previous = noise;
    }
    if (inBar % 8 === 0)
      hit(
        out,
        start,
        (i) => Math.sin((2 * Math.PI * (50 * i + 70 * 0.04 * MIX_RATE * (1 - Math.exp(-i / (0.04 * MIX_RATE))))) / MIX_RATE),
        0.25,
        0.08,
        gain * 0.7,
      );
    if (inBar % 8 === 4) hit(out, start, (i) => 0.6 * (random() * 2 - 1) + 0.4 * Math.sin((2 * Math.PI * 185 * i) / MIX_RATE), 0.2, 0.05, gain * 0.45);
  }
}

function hit(out: Float32Array, start: number, wave: (i: number) => number, seconds: number, decay: number, gain: number): void {
  for (let i = 0; i < seconds * MIX_RATE && start + i < out.length; i++) out[start + i]! += gain * wave(i) * Math.exp(-i / (decay * MIX_RATE));
}

const saw = (phase: number) => 2 * (phase - Math.floor(phase + 0.5));

function addBass(out: Float32Array, beat: number, chordAt: (t: number) => number, gain: number): void {
  let phase = 0;
  let smooth = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / MIX_RATE;
    phase += chordAt(t) / 2 / MIX_RATE;
    const local = (t % beat) / beat;
    smooth += 0.05 * (saw(phase) - smooth);
    out[i]! += gain * smooth * Math.exp(-local * 2);
  }
}

function addPad(out: Float32Array, random: Random, chordAt: (t: number) => number, gain: number): void {
  const ratios = [1, 2 ** (pick(random, [3, 4]) / 12), 2 ** (7 / 12), 2];
  const phases = ratios.map(() => random());
  let smooth = 0;
  const cutoff = between(random, 0.04, 0.15);
  for (let i = 0; i < out.length; i++) {
    const root = chordAt(i / MIX_RATE) * 2;
    let value = 0;
    ratios.forEach((ratio, n) => {
      phases[n]! += (root * ratio * (1 + 0.002 * n)) / MIX_RATE;
      value += saw(phases[n]!);
    });
    smooth += cutoff * (value / ratios.length - smooth);
    out[i]! += gain * smooth;
  }
}

function addPlucks(out: Float32Array, random: Random, beat: number, chordAt: (t: number) => number, gain: number): void {
  const step = beat / 2;
  const pattern = [0, 7, 12, 16, 12, 7].map((semi) => 2 ** (semi / 12));
  for (let n = 0; n * step < out.length / MIX_RATE; n++) {
    const t = n * step;
    const hz = chordAt(t) * 2 * pattern[n % pattern.length]!;
    const period = Math.round(MIX_RATE / hz);
    const line = Float32Array.from({ length: period }, () => random() * 2 - 1);
    const start = Math.round(t * MIX_RATE);
    for (let i = 0; i < 1.2 * MIX_RATE && start + i < out.length; i++) {
      const k = i % period;
      const value = line[k]!;
      line[k] = 0.497 * (value + line[(k + 1) % period]!);
      out[start + i]! += gain * value;
    }
  }
}

/** A melody: notes of 1/2, 1 or 2 beats on a pentatonic scale, phrases of 4 bars with rests. */
function melody(random: Random, beat: number, seconds: number, rootHz: number): { start: number; end: number; hz: number }[] {
  const notes: { start: number; end: number; hz: number }[] = [];
  let degree = 3;
  for (let t = beat; t < seconds - beat;) {
    const length = pick(random, [0.5, 1, 1, 2]) * beat;
    if (random() < 0.12) {
      t += 2 * beat;
      continue;
    }
    degree = Math.max(0, Math.min(SCALE.length - 1, degree + Math.round(between(random, -2.4, 2.4))));
    notes.push({ start: t, end: t + length * 0.95, hz: rootHz * 4 * 2 ** (SCALE[degree]! / 12) });
    t += length;
  }
  return notes;
}

function addLead(out: Float32Array, random: Random, lead: Exclude<Lead, 'none'>, beat: number, rootHz: number, gain: number): void {
  const notes = melody(random, beat, out.length / MIX_RATE, lead === 'flute' ? rootHz * 2 : rootHz);
  const vibratoHz = between(random, 4.5, 6.5);
  const depth =
    lead === 'synth'
      ? between(random, 0.005, 0.03)
      : lead === 'violin'
        ? between(random, 0.01, 0.025)
        : lead === 'flute'
          ? 0.008
          : lead === 'organ'
            ? 0.003
            : 0;
  const tremoloHz = between(random, 4, 7.5);
  const tremoloDepth = between(random, 0.3, 0.7);
  let phase = 0;
  let lp1 = 0;
  let lp2 = 0;
  let breath = 0;
  let note = 0;
  let hz = notes[0]?.hz ?? rootHz;
  for (let i = 0; i < out.length; i++) {
    const t = i / MIX_RATE;
    while (note < notes.length - 1 && notes[note]!.end < t) note++;
    const current = notes[note];
    if (!current || t < current.start || t > current.end + 0.05) continue;
    const age = t - current.start;
    const glide = lead === 'guitar' && age < 0.08 ? 2 ** ((-(0.08 - age) * 12) / 12) : 1;
    hz += (current.hz * glide - hz) * (lead === 'synth' ? 0.002 : 0.02);
    const vibrato = 1 + depth * Math.min(1, lead === 'violin' ? age / 0.3 : 1) * Math.sin(2 * Math.PI * vibratoHz * t);
    phase += (hz * vibrato) / MIX_RATE;
    const envelope = Math.min(1, age / (lead === 'flute' || lead === 'violin' ? 0.06 : 0.01)) * Math.min(1, (current.end + 0.05 - t) / 0.05);
    let value: number;
    if (lead === 'synth') value = 0.6 * saw(phase) + 0.4 * (phase % 1 < 0.5 ? 1 : -1);
    else if (lead === 'violin') value = saw(phase);
    else if (lead === 'flute') {
      breath += 0.3 * (random() * 2 - 1 - breath);
      value = Math.sin(2 * Math.PI * phase) + 0.15 * Math.sin(4 * Math.PI * phase) + 0.12 * breath;
    } else if (lead === 'epiano') {
      const tone =
        Math.sin(2 * Math.PI * phase) + 0.5 * Math.sin(4 * Math.PI * phase) * Math.exp(-age * 3) + 0.25 * Math.sin(6 * Math.PI * phase) * Math.exp(-age * 6);
      value = tone * Math.exp(-age * 1.5) * (1 - tremoloDepth * (0.5 + 0.5 * Math.sin(2 * Math.PI * tremoloHz * t)));
    } else if (lead === 'organ') {
      let tone = 0;
      for (const [h, level] of [
        [1, 1],
        [2, 0.8],
        [3, 0.6],
        [4, 0.5],
        [6, 0.3],
        [8, 0.25],
      ] as const)
        tone += level * Math.sin(2 * Math.PI * h * phase);
      value = 0.4 * tone * (1 - tremoloDepth * (0.5 + 0.5 * Math.sin(2 * Math.PI * tremoloHz * t)));
    } else value = Math.tanh(4 * (0.7 * (phase % 1 < 0.5 ? 1 : -1) + 0.3 * saw(phase * 1.005)));
    lp1 += (lead === 'violin' ? 0.35 : 0.5) * (value - lp1);
    lp2 += (lead === 'violin' ? 0.35 : 0.5) * (lp1 - lp2);
    out[i]! += gain * envelope * (lead === 'flute' || lead === 'epiano' || lead === 'organ' ? value : lp2);
  }
}
