import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectVocals } from './vocal-detector.js';

const run = promisify(execFile);
const RATE = 22_050;

/** A file decoded as the analysis decodes it: ffmpeg, mono, 22.05 kHz float samples. */
async function decode(file: string): Promise<Float32Array> {
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  });
  const bytes = new Uint8Array(stdout.byteLength);
  bytes.set(stdout);
  return new Float32Array(bytes.buffer, 0, bytes.byteLength >> 2);
}

/** A held chord (A minor, sine partials): soft accompaniment that is not a voice. */
function chord(seconds: number, gain: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    out[i] = (gain * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 261.63 * t) + Math.sin(2 * Math.PI * 329.63 * t))) / 3;
  }
  return out;
}

/**
 * An instrumental with a strong melodic lead: a band-limited sawtooth playing a melody (a note
 * every 0.4 s) with 5.5 Hz vibrato of ±2%, over a held chord.
 */
function synthLead(seconds: number): Float32Array {
  const out = chord(seconds, 0.15);
  const melody = [440, 494, 523, 587, 523, 440, 392, 440, 659, 587];
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const note = melody[Math.floor(t / 0.4) % melody.length]!;
    const hz = note * (1 + 0.02 * Math.sin(2 * Math.PI * 5.5 * t));
    phase += (2 * Math.PI * hz) / RATE;
    let saw = 0;
    for (let h = 1; h * hz < 5000; h++) saw += Math.sin(h * phase) / h;
    out[i]! += 0.3 * saw;
  }
  return out;
}

/**
 * A loud drum loop (120 BPM: a sine-sweep kick, a noise snare, a closed hat on every eighth),
 * with a fixed pseudo-random source so that every run hears the same drums.
 */
function drums(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  let seed = 1;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 1_073_741_824 - 1;
  };
  for (let n = 0; n * 0.25 < seconds; n++) {
    const start = Math.round(n * 0.25 * RATE);
    for (let i = 0; i < 0.3 * RATE && start + i < out.length; i++) {
      const t = i / RATE;
      if (n % 4 === 0) out[start + i]! += 0.9 * Math.sin(2 * Math.PI * (45 * t + 5 * (1 - Math.exp(-t / 0.05)))) * Math.exp(-t / 0.12);
      if (n % 4 === 2) out[start + i]! += 0.6 * noise() * Math.exp(-t / 0.07);
      out[start + i]! += 0.15 * noise() * Math.exp(-t / 0.01);
    }
  }
  return out;
}

const rms = (signal: Float32Array) => Math.sqrt(signal.reduce((sum, value) => sum + value * value, 0) / Math.max(1, signal.length));

/** `voice` under `music`, the voice's RMS `db` relative to the music's. */
function under(music: Float32Array, voice: Float32Array, db: number): Float32Array {
  return mixInto(music, voice, (rms(music) / rms(voice)) * 10 ** (db / 20));
}

function mixInto(music: Float32Array, voice: Float32Array, voiceGain: number): Float32Array {
  const out = new Float32Array(music);
  for (let i = 0; i < out.length && i < voice.length; i++) out[i]! += voiceGain * voice[i]!;
  return out;
}

describe('vocal detector', () => {
  let dir: string;
  let spoken: Float32Array;
  let sung: Float32Array;
  let whispered: Float32Array;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'encore-vocals-'));
    const speech = path.join(dir, 'spoken.wav');
    await run('espeak-ng', [
      '-v',
      'en-us',
      '-s',
      '150',
      '-w',
      speech,
      'I walked along the river in the morning light and sang about the city and the sea, nobody knows the way back home',
    ]);
    spoken = await decode(speech);
    const whisper = path.join(dir, 'whispered.wav');
    await run('espeak-ng', [
      '-v',
      'en+whisper',
      '-s',
      '150',
      '-w',
      whisper,
      'I walked along the river in the morning light and sang about the city and the sea, nobody knows the way back home',
    ]);
    whispered = await decode(whisper);
    // Sung: each word held on a note of a melody, with a flat intonation, slowly.
    const notes = [220, 247, 262, 294, 262, 247, 220, 196];
    const words = 'hold on to me tonight the stars are falling down and we are dancing in the rain'.split(' ');
    const ssml = words.map((word, i) => `<prosody pitch="${notes[i % notes.length]}Hz" range="x-low" rate="x-slow">${word}</prosody>`).join(' ');
    const song = path.join(dir, 'sung.wav');
    await run('espeak-ng', ['-m', '-v', 'en+f3', '-w', song, `<speak>${ssml}</speak>`]);
    sung = await decode(song);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hears a spoken voice, alone and over a held chord', () => {
    const alone = detectVocals(spoken, RATE);
    expect(alone.presence).toBeGreaterThan(0.5);
    expect(alone.confidence).toBeGreaterThan(0);
    const withChord = detectVocals(mixInto(chord(spoken.length / RATE, 0.1), spoken, 1), RATE);
    expect(withChord.presence).toBeGreaterThan(0.5);
  });

  it('hears a sung voice', () => {
    expect(detectVocals(sung, RATE).presence).toBeGreaterThan(0.5);
  });

  it('hears a whispered voice (no pitch at all), alone and under loud drums', () => {
    const alone = detectVocals(whispered, RATE);
    expect(alone.measures.formantMotionTop).toBe(0); // nothing periodic to read formants on
    expect(alone.presence).toBeGreaterThan(0.5);
    expect(alone.confidence).toBeGreaterThan(0);
    expect(detectVocals(under(drums(whispered.length / RATE), whispered, -10), RATE).presence).toBeGreaterThan(0.5);
  });

  it('hears a quiet voice under loud drums, and no voice in the drums alone', () => {
    const loop = drums(spoken.length / RATE);
    expect(detectVocals(loop, RATE).presence).toBeLessThan(0.5);
    expect(detectVocals(under(loop, spoken, -14), RATE).presence).toBeGreaterThan(0.5);
  });

  it('does not take a synth lead with vibrato for a voice', () => {
    const estimate = detectVocals(synthLead(12), RATE);
    expect(estimate.presence).toBeLessThan(0.5);
    expect(estimate.measures.periodicShare).toBeGreaterThan(0.5); // it did hear the melody
  });

  it('finds no voice in silence, in a held chord, or in nothing at all', () => {
    for (const signal of [new Float32Array(5 * RATE), chord(8, 0.3), new Float32Array(0), new Float32Array(100)]) {
      const estimate = detectVocals(signal, RATE);
      expect(estimate.presence).toBeLessThan(0.5);
      expect(estimate.confidence).toBeGreaterThanOrEqual(0);
      expect(estimate.confidence).toBeLessThanOrEqual(1);
    }
    expect(detectVocals(new Float32Array(0), RATE).measures.seconds).toBe(0);
  });

  it('works on a clip of 2 s, with less confidence than on a longer one', () => {
    const clip = spoken.subarray(0, 2 * RATE);
    const short = detectVocals(clip, RATE);
    expect(Number.isFinite(short.presence)).toBe(true);
    expect(short.presence).toBeGreaterThanOrEqual(0);
    expect(short.presence).toBeLessThanOrEqual(1);
    expect(short.measures.seconds).toBeCloseTo(2, 1);
    expect(short.confidence).toBeLessThan(detectVocals(spoken, RATE).confidence);
  });

  it('reads a long song in excerpts, quiet or loud alike', () => {
    const song = new Float32Array(150 * RATE);
    for (let i = 0; i < song.length; i++) song[i] = spoken[i % spoken.length]!;
    const loud = detectVocals(song, RATE);
    expect(loud.measures.seconds).toBeLessThan(60);
    expect(loud.presence).toBeGreaterThan(0.5);
    const quiet = detectVocals(
      song.map((sample) => sample * 0.01),
      RATE,
    );
    expect(quiet.presence).toBeCloseTo(loud.presence, 1);
  });
});
