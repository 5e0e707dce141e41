import { createRequire } from 'node:module';

/**
 * essentia.js (AGPL-3.0, WASM) as Encore uses it: only the core and its WASM back-end are
 * loaded (not the model and plot add-ons), once per process. The subset of its API used here
 * is typed below; every vector handed to WASM is deleted after use, so the heap does not grow
 * song after song.
 */

interface WasmVector {
  delete(): void;
  size(): number;
}

interface EssentiaCore {
  version: string;
  arrayToVector(input: Float32Array): WasmVector;
  vectorToArray(vector: WasmVector): Float32Array;
  RhythmExtractor2013(
    signal: WasmVector,
    maxTempo: number,
    method: string,
    minTempo: number,
  ): { bpm: number; ticks: WasmVector; estimates: WasmVector; bpmIntervals: WasmVector; confidence: number };
  KeyExtractor(
    audio: WasmVector,
    averageDetuningCorrection: boolean,
    frameSize: number,
    hopSize: number,
    hpcpSize: number,
    maxFrequency: number,
    maximumSpectralPeaks: number,
    minFrequency: number,
    pcpThreshold: number,
    profileType: string,
    sampleRate: number,
  ): { key: string; scale: string; strength: number };
  Danceability(signal: WasmVector, maxTau: number, minTau: number, sampleRate: number): { danceability: number; dfa: WasmVector };
  DynamicComplexity(signal: WasmVector, frameSize: number, sampleRate: number): { dynamicComplexity: number; loudness: number };
}

type EssentiaConstructor = new (wasm: unknown) => EssentiaCore;

let instance: EssentiaCore | undefined;

export function essentia(): EssentiaCore {
  if (!instance) {
    const require = createRequire(import.meta.url);
    const wasm: unknown = require('essentia.js/dist/essentia-wasm.umd.js');
    const core = require('essentia.js/dist/essentia.js-core.umd.js') as EssentiaConstructor | { default: EssentiaConstructor };
    const Essentia = 'default' in core ? core.default : core;
    const wasmModule = (wasm as { EssentiaWASM?: unknown }).EssentiaWASM ?? wasm;
    instance = new Essentia(wasmModule);
  }
  return instance;
}

/** Runs `work` with `signal` as a WASM vector and deletes it afterwards. */
export function withVector<T>(signal: Float32Array, work: (vector: WasmVector) => T): T {
  const vector = essentia().arrayToVector(signal);
  try {
    return work(vector);
  } finally {
    vector.delete();
  }
}

export function release(...vectors: (WasmVector | undefined)[]): void {
  for (const vector of vectors) vector?.delete();
}
