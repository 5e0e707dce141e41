import type { SongFeatures } from '@encore/common/analysis.contract';
import { essentia, release, withVector } from './essentia.js';
import { measureLoudness } from './loudness.js';
import { spectralFeatures } from './spectral-features.js';
import { chooseOctave, onsetEnvelopes, type OctaveContext } from './tempo-octave.js';
import { detectVocals } from './vocal-detector.js';

/** Bumped when the features change meaning: the backfill re-analyses older rows. */
export const ANALYSER_VERSION = 3;
export const ANALYSIS_SAMPLE_RATE = 22_050;
/** The tempo tracker assumes 44.1 kHz: it gets this much of the song's middle, upsampled. */
const TEMPO_EXCERPT_SECONDS = 30;
/** Shorter than this is not music Encore can say anything about. */
export const MIN_ANALYSABLE_SECONDS = 3;

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export interface SignalAnalysis {
  features: SongFeatures;
  vector: number[];
}

/**
 * The features of a song decoded to mono at 22.05 kHz. essentia.js: tempo (RhythmExtractor2013,
 * degara), key and mode (KeyExtractor), danceability, dynamic complexity. Encore's own code:
 * loudness (EBU R128), spectral centroid, onset rate, the acoustic estimate, and vocal presence
 * (vocal-detector.ts: formant motion on the song's periodic frames, syllabic modulation).
 * Version 2: vocal presence is a probability with a confidence (issue 31).
 * Version 3: the tempo is the octave a listener taps (tempo-octave.ts), and its confidence is
 * lower when that octave was a close call (issue 31).
 */
export function analyseSignal(signal: Float32Array, sampleRate = ANALYSIS_SAMPLE_RATE): SignalAnalysis {
  const core = essentia();
  const { key, mode, keyStrength, danceability, dynamicComplexity } = withVector(signal, (vector) => {
    const found = core.KeyExtractor(vector, true, 4096, 4096, 12, 3500, 60, 25, 0.2, 'bgate', sampleRate);
    const dance = core.Danceability(vector, 8800, 310, sampleRate);
    release(dance.dfa);
    const dynamics = core.DynamicComplexity(vector, 0.2, sampleRate);
    return {
      key: found.key,
      mode: found.scale === 'minor' ? ('minor' as const) : ('major' as const),
      keyStrength: clamp01(found.strength),
      danceability: clamp01(dance.danceability / 3),
      dynamicComplexity: dynamics.dynamicComplexity,
    };
  });
  const loudness = measureLoudness(signal, sampleRate);
  const spectral = spectralFeatures(signal, sampleRate);

  const loudnessScore = clamp01((loudness.integratedLufs + 32) / 24); // -32 LUFS quiet .. -8 LUFS loud
  const onsetScore = clamp01(spectral.onsetRate / 6);
  // Log scale of the heard share above 1.5 kHz: 2 % (a muffled mix) → 0, 10 % → 0.5, 50 % (cymbals, hiss) → 1.
  const brightness = clamp01(Math.log(Math.max(spectral.trebleShare, 1e-6) / 0.02) / Math.log(0.5 / 0.02));
  const energy = clamp01(0.55 * loudnessScore + 0.25 * onsetScore + 0.2 * brightness);
  const tempo = measureTempo(signal, sampleRate, { onsetRate: spectral.onsetRate, energy });
  // Acoustic recordings breathe (dynamics), are less flat-spectrum and less loud than produced electronic music.
  const acousticness = clamp01(0.45 * clamp01(dynamicComplexity / 8) + 0.35 * (1 - clamp01(spectral.flatness * 8)) + 0.2 * (1 - loudnessScore));
  const vocals = detectVocals(signal, sampleRate);
  const features: SongFeatures = {
    bpm: round(tempo.bpm, 1),
    bpmConfidence: round(tempo.confidence, 3),
    key,
    mode,
    keyStrength: round(keyStrength, 3),
    loudnessLufs: round(loudness.integratedLufs, 1),
    loudnessRange: round(loudness.rangeLu, 1),
    energy: round(energy, 3),
    energyLevel: energy >= 0.62 ? 'high' : energy >= 0.38 ? 'medium' : 'low',
    danceability: round(danceability, 3),
    spectralCentroidHz: Math.round(spectral.centroidHz),
    brightness: round(brightness, 3),
    onsetRate: round(spectral.onsetRate, 2),
    dynamicComplexity: round(dynamicComplexity, 3),
    acousticness: round(acousticness, 3),
    vocalPresence: round(clamp01(vocals.presence), 3),
    vocalConfidence: round(clamp01(vocals.confidence), 3),
  };
  return { features, vector: featureVector(features) };
}

/** From this margin (log units) between the best octave and the next, the octave is not in doubt. */
const CLEAR_OCTAVE_MARGIN = 0.6;

/**
 * The tempo a listener taps, and how sure it is. essentia's RhythmExtractor2013 (degara) finds
 * the beat's period; tempo-octave.ts picks its octave (x/2, x or 2x). The confidence is the
 * regularity of the tracked beats, lowered by up to half when the octave was a close call.
 */
function measureTempo(signal: Float32Array, sampleRate: number, context: OctaveContext): { bpm: number; confidence: number } {
  const factor = Math.round(44_100 / sampleRate);
  const length = Math.min(signal.length, TEMPO_EXCERPT_SECONDS * sampleRate);
  const start = Math.floor((signal.length - length) / 2);
  const excerpt = signal.subarray(start, start + length);
  // Linear interpolation up to 44.1 kHz: the tracker's onset functions need no content above 11 kHz.
  const upsampled = new Float32Array(length * factor);
  for (let i = 0; i < length; i++) {
    const a = excerpt[i]!;
    const b = i + 1 < length ? excerpt[i + 1]! : a;
    for (let j = 0; j < factor; j++) upsampled[i * factor + j] = a + ((b - a) * j) / factor;
  }
  const tracked = withVector(upsampled, (vector) => {
    const rhythm = essentia().RhythmExtractor2013(vector, 208, 'degara', 40);
    const intervals = Array.from(essentia().vectorToArray(rhythm.bpmIntervals));
    release(rhythm.ticks, rhythm.estimates, rhythm.bpmIntervals);
    // degara reports no confidence: the regularity of the beat intervals stands for it.
    const regularity = intervals.length < 4 ? 0 : clamp01(1 - coefficientOfVariation(intervals) * 4);
    return { bpm: Number.isFinite(rhythm.bpm) ? rhythm.bpm : 0, regularity };
  });
  if (!(tracked.bpm > 0)) return { bpm: 0, confidence: 0 };
  const octave = chooseOctave(tracked.bpm, onsetEnvelopes(excerpt, sampleRate), context);
  const certainty = clamp01(octave.margin / CLEAR_OCTAVE_MARGIN);
  return { bpm: octave.bpm, confidence: tracked.regularity * (0.5 + 0.5 * certainty) };
}

function coefficientOfVariation(values: number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return mean > 0 ? Math.sqrt(variance) / mean : 1;
}

const PITCHES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const ALIASES: Record<string, string> = { Db: 'C#', 'D#': 'Eb', Gb: 'F#', 'G#': 'Ab', 'A#': 'Bb' };

/**
 * The compact vector similarity compares (12 numbers, each roughly 0..1): tempo on a log
 * scale, energy, danceability, brightness, loudness, onset density, acousticness, vocals,
 * dynamics, mode, and the key on the circle of fifths (sin, cos, weighted low).
 */
export function featureVector(features: SongFeatures): number[] {
  const pitch = PITCHES.indexOf(ALIASES[features.key] ?? features.key);
  const fifths = pitch < 0 ? 0 : ((pitch * 7) % 12) + (features.mode === 'minor' ? 3 : 0);
  const angle = (2 * Math.PI * fifths) / 12;
  return [
    clamp01(Math.log2(Math.max(features.bpm, 40) / 40) / 2.4),
    features.energy,
    features.danceability,
    features.brightness,
    clamp01((features.loudnessLufs + 32) / 24),
    clamp01(features.onsetRate / 6),
    features.acousticness,
    features.vocalPresence,
    clamp01(features.dynamicComplexity / 8),
    features.mode === 'major' ? 0.6 : 0,
    pitch < 0 ? 0 : 0.15 * (1 + Math.sin(angle)),
    pitch < 0 ? 0 : 0.15 * (1 + Math.cos(angle)),
  ].map((value) => round(value, 4));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
