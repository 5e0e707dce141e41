/**
 * Labelled vocal set B (never tuned on). Made by other means than set A: the instruments by sox's
 * synth (note chains: sawtooth, square, triangle and sine voices, chords, overdrive) shaped by
 * ffmpeg (vibrato, tremolo, filters), the drums by ffmpeg's aevalsrc; the voices by flite (CMU's
 * kal, awb, rms and slt voices: recorded-speech units, not espeak's formant synthesis), spoken,
 * rapped (time-compressed) or sung (word by word on a melody through flite's F0 target, some
 * with vibrato, some pitch-shifted by sox); other tempos (60-180 BPM) and other codecs (FLAC,
 * 48 kbit/s MP3 at 22 kHz, 48 kbit/s AAC, 24 kbit/s Opus, Vorbis q0). The voice sits -3..-20 dB
 * under the music. Leads without a voice: violin-like sawtooth with vibrato through a plain
 * low-pass, overdriven guitar, flute (sine with vibrato and breath noise), organ with tremolo,
 * and a whistle-like sine with glides.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { between, encode, inPool, layPhrases, mix, MIX_RATE, pick, readAudio, run, seeded, writeWav, type Clip, type Codec, type Random } from './audio-kit.js';

const TEXTS = [
  'the train was late again so we sat by the window and watched the snow come down',
  'give me one more reason to stay and I will never leave this town',
  'she said the ocean knows my name and every wave will bring me back to you',
  'count the hours till the morning comes and the city wakes up slow',
  'we ran across the field at noon with nothing but the wind behind us',
  'money in my pocket and a song inside my head I keep on moving',
];
const VOICES = ['kal', 'awb', 'rms', 'slt', 'kal16'];
const LEADS = ['violin', 'guitar', 'flute', 'organ', 'whistle'] as const;
type Lead = (typeof LEADS)[number] | 'none';
const BEDS = ['rock', 'ballad', 'electro', 'strings'] as const;
type Bed = (typeof BEDS)[number];
const CODECS: Codec[] = ['flac', 'mp3-48-22k', 'aac-48', 'opus-24', 'vorbis-q0'];
const MAJOR = [0, 2, 4, 5, 7, 9, 11, 12, 14];

export async function buildSetB(dir: string, count: number, seconds: number): Promise<Clip[]> {
  await mkdir(dir, { recursive: true });
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    2,
    (index) => makeClip(dir, index, seconds),
  );
}

async function makeClip(dir: string, index: number, seconds: number): Promise<Clip> {
  const random = seeded(77_000 + index * 7);
  const voice = index % 2 === 1;
  const bpm = Math.round(between(random, 60, 180));
  const rootHz = between(random, 82, 147);
  const bed = pick(random, BEDS);
  const lead: Lead = voice ? (random() < 0.4 ? pick(random, LEADS) : 'none') : random() < 0.8 ? pick(random, LEADS) : 'none';
  const base = path.join(dir, `b-${String(index).padStart(3, '0')}`);
  const music = await makeMusic(base, random, seconds, bpm, rootHz, bed, lead, voice);
  const codec = CODECS[index % CODECS.length]!;
  let description = `${bed} bed, ${lead} lead, ${bpm} BPM, ${codec}`;
  let voiceTrack: Float32Array | undefined;
  let voiceDb = 0;
  if (voice) {
    const style = pick(random, ['spoken', 'rapped', 'sung', 'sung', 'shifted'] as const);
    const name = pick(random, VOICES);
    const phrases = [
      await sing(`${base}-v`, name, pick(random, TEXTS), style, random, rootHz),
      await sing(`${base}-w`, name, pick(random, TEXTS), style, random, rootHz),
    ];
    voiceTrack = layPhrases(phrases, seconds, random, between(random, 0.2, 3), [0.5, 3]);
    voiceDb = -3 - random() * 17;
    description = `${style === 'shifted' ? 'sung' : style} flite ${name}${style === 'shifted' ? ' pitch-shifted' : ''} at ${voiceDb.toFixed(0)} dB, ${description}`;
  }
  const wav = `${base}-mix.wav`;
  await writeWav(wav, mix(music, voiceTrack, voiceDb));
  const file = await encode(wav, base, codec);
  await rm(wav);
  return { file, voice, description, ...(voice ? { voiceDb } : {}) };
}

async function flite(file: string, voice: string, text: string, settings: string[]): Promise<void> {
  await run('flite', ['-voice', voice, ...settings, '-t', text, '-o', file]);
}

async function sing(
  base: string,
  voice: string,
  text: string,
  style: 'spoken' | 'rapped' | 'sung' | 'shifted',
  random: Random,
  rootHz: number,
): Promise<Float32Array> {
  const file = `${base}.wav`;
  if (style === 'spoken') await flite(file, voice, text, ['--setf', `duration_stretch=${between(random, 0.9, 1.2).toFixed(2)}`]);
  else if (style === 'rapped') await flite(file, voice, text, ['--setf', `duration_stretch=${between(random, 0.62, 0.78).toFixed(2)}`]);
  else {
    const female = voice === 'slt';
    let degree = Math.floor(random() * 4);
    const words = text.split(/\s+/u);
    const parts: Float32Array[] = [];
    for (const [n, word] of words.entries()) {
      degree = Math.max(0, Math.min(MAJOR.length - 1, degree + Math.round(between(random, -2, 2))));
      const hz = rootHz * (female ? 2 : 1) * 2 ** (MAJOR[degree]! / 12);
      const part = `${base}-${n}.wav`;
      await flite(part, voice, word, [
        '--setf',
        `int_f0_target_mean=${hz.toFixed(0)}`,
        '--setf',
        'int_f0_target_stddev=1',
        '--setf',
        `duration_stretch=${between(random, 1.6, 2.6).toFixed(2)}`,
      ]);
      parts.push(await readAudio(part));
      await rm(part);
      parts.push(new Float32Array(Math.round(between(random, 0.02, 0.12) * MIX_RATE)));
    }
    const joined = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
    let at = 0;
    for (const p of parts) {
      joined.set(p, at);
      at += p.length;
    }
    await writeWav(`${base}-joined.wav`, joined);
    const effects = style === 'shifted' ? ['pitch', String(Math.round(between(random, 300, 700)))] : random() < 0.6 ? ['tremolo', '5.5', '8'] : [];
    await run('sox', [`${base}-joined.wav`, file, ...effects]);
    if (style === 'sung' && random() < 0.6) {
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        file,
        '-af',
        `vibrato=f=${between(random, 5, 6.5).toFixed(1)}:d=0.15`,
        `${base}-vib.wav`,
      ]);
      await run('mv', [`${base}-vib.wav`, file]);
    }
    await rm(`${base}-joined.wav`);
  }
  const samples = await readAudio(file);
  await rm(file);
  return samples;
}

/** A sox synth chain of notes: `synth D type F fade ...` joined by ':' (a rest is a 0 Hz sine). */
async function soxNotes(file: string, notes: { seconds: number; hz: number }[], type: string, extra: string[] = []): Promise<void> {
  const chain: string[] = [];
  for (const [n, note] of notes.entries()) {
    if (n > 0) chain.push(':');
    const d = note.seconds.toFixed(3);
    chain.push('synth', d, note.hz > 0 ? type : 'sine', note.hz > 0 ? note.hz.toFixed(2) : '0', 'fade', 'h', '0.02', d, (note.seconds * 0.3).toFixed(3));
  }
  // Effects after a ':' belong to the last segment only: the whole chain's are applied in a second pass.
  await run('sox', ['-n', '-r', String(MIX_RATE), '-c', '1', extra.length > 0 ? `${file}.raw.wav` : file, ...chain]);
  if (extra.length > 0) {
    await run('sox', [`${file}.raw.wav`, file, ...extra]);
    await rm(`${file}.raw.wav`);
  }
}

async function makeMusic(
  base: string,
  random: Random,
  seconds: number,
  bpm: number,
  rootHz: number,
  bed: Bed,
  lead: Lead,
  voice: boolean,
): Promise<Float32Array> {
  const beat = 60 / bpm;
  const bars = Math.ceil(seconds / (4 * beat)) + 1;
  const progression = [0, pick(random, [5, 7]), pick(random, [9, 4]), pick(random, [7, 5])];
  const parts: { samples: Float32Array; gain: number }[] = [];
  const add = async (file: string, gain: number) => {
    parts.push({ samples: await readAudio(file), gain });
    await rm(file);
  };
  if (bed !== 'strings' && bed !== 'ballad') {
    const kick = bed === 'electro' ? `0.7*sin(2*PI*50*t)*exp(-18*mod(t,${beat}))` : `0.6*sin(2*PI*60*t)*exp(-20*mod(t,${2 * beat}))`;
    const snare = `0.3*(2*random(0)-1)*exp(-25*mod(t+${beat},${2 * beat}))`;
    const hats = `0.12*(2*random(1)-1)*exp(-80*mod(t,${beat / (bed === 'electro' ? 2 : 4)}))`;
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `aevalsrc='${kick}+${snare}+${hats}':s=${MIX_RATE}:d=${seconds}`,
      '-af',
      'highpass=f=30',
      `${base}-drums.wav`,
    ]);
    await add(`${base}-drums.wav`, 1);
  }
  const chordNotes = Array.from({ length: bars }, (_, bar) => ({ seconds: 4 * beat, hz: rootHz * 2 ** (progression[bar % 4]! / 12) }));
  const bassType = bed === 'electro' ? 'sawtooth' : 'square';
  await soxNotes(
    `${base}-bass.wav`,
    chordNotes.flatMap((n) => [
      { seconds: beat * 2, hz: n.hz / 2 },
      { seconds: beat * 2, hz: n.hz / 2 },
    ]),
    bassType,
    ['lowpass', '400'],
  );
  await add(`${base}-bass.wav`, 0.5);
  const chordChain: string[] = [];
  for (const [n, note] of chordNotes.entries()) {
    if (n > 0) chordChain.push(':');
    const third = note.hz * 2 * 2 ** (4 / 12);
    const fifth = note.hz * 2 * 2 ** (7 / 12);
    const type = bed === 'ballad' ? 'pluck' : bed === 'strings' ? 'sawtooth' : 'triangle';
    const d = note.seconds.toFixed(3);
    chordChain.push('synth', d, type, (note.hz * 2).toFixed(2), type, 'mix', third.toFixed(2), type, 'mix', fifth.toFixed(2));
    chordChain.push('fade', 'h', bed === 'ballad' ? '0.005' : '0.1', d, (note.seconds * (bed === 'ballad' ? 0.9 : 0.2)).toFixed(3));
  }
  await run('sox', ['-n', '-r', String(MIX_RATE), '-c', '1', `${base}-chords-raw.wav`, ...chordChain]);
  await run('sox', [
    `${base}-chords-raw.wav`,
    `${base}-chords.wav`,
    'lowpass',
    bed === 'strings' ? '1500' : '2500',
    'chorus',
    '0.7',
    '0.9',
    '55',
    '0.4',
    '0.25',
    '2',
    '-t',
  ]);
  await rm(`${base}-chords-raw.wav`);
  await add(`${base}-chords.wav`, bed === 'strings' || bed === 'ballad' ? 0.45 : 0.25);
  if (lead !== 'none') {
    const notes: { seconds: number; hz: number }[] = [];
    let degree = 4;
    for (let t = 0; t < seconds;) {
      const length = pick(random, [0.5, 1, 1, 1.5, 2]) * beat;
      degree = Math.max(0, Math.min(MAJOR.length - 1, degree + Math.round(between(random, -2.5, 2.5))));
      notes.push({ seconds: length, hz: random() < 0.1 ? 0 : rootHz * (lead === 'whistle' ? 8 : 4) * 2 ** (MAJOR[degree]! / 12) });
      t += length;
    }
    const type = lead === 'violin' ? 'sawtooth' : lead === 'guitar' ? 'square' : lead === 'organ' ? 'triangle' : 'sine';
    await soxNotes(
      `${base}-lead-raw.wav`,
      notes,
      type,
      lead === 'guitar' ? ['overdrive', '25', '10', 'lowpass', '3500'] : lead === 'organ' ? ['tremolo', '6', '40'] : [],
    );
    const filter =
      lead === 'violin'
        ? `vibrato=f=${between(random, 5, 6.5).toFixed(1)}:d=0.2,lowpass=f=3500,lowpass=f=3500`
        : lead === 'flute'
          ? 'vibrato=f=5:d=0.1,tremolo=f=5:d=0.2'
          : lead === 'whistle'
            ? 'vibrato=f=6:d=0.3'
            : 'anull';
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', `${base}-lead-raw.wav`, '-af', filter, `${base}-lead.wav`]);
    await rm(`${base}-lead-raw.wav`);
    await add(`${base}-lead.wav`, voice ? 0.2 : between(random, 0.3, 0.55));
    if (lead === 'flute') {
      await run('sox', [
        '-n',
        '-r',
        String(MIX_RATE),
        '-c',
        '1',
        `${base}-breath.wav`,
        'synth',
        String(seconds),
        'pinknoise',
        'bandpass',
        '2500',
        '2000h',
        'vol',
        '0.05',
      ]);
      await add(`${base}-breath.wav`, 1);
    }
  }
  const out = new Float32Array(Math.round(seconds * MIX_RATE));
  for (const { samples, gain } of parts) for (let i = 0; i < out.length && i < samples.length; i++) out[i]! += gain * samples[i]!;
  return out;
}
