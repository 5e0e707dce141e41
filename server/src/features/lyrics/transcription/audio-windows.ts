/**
 * Long audio goes to engines in windows (progress between them, memory and request sizes
 * bounded). A window ends at the quietest moment of its last seconds, so a word is rarely cut.
 */

export interface AudioWindow {
  start: number;
  end: number;
}

const FRAME_SECONDS = 0.05;

export function windowsAtQuietPoints(samples: Float32Array, sampleRate: number, windowSeconds: number, searchSeconds = 5): AudioWindow[] {
  const windowLength = Math.max(1, Math.round(windowSeconds * sampleRate));
  const search = Math.min(Math.round(searchSeconds * sampleRate), Math.floor(windowLength / 2));
  const frame = Math.max(1, Math.round(FRAME_SECONDS * sampleRate));
  const windows: AudioWindow[] = [];
  let start = 0;
  while (start < samples.length) {
    const hardEnd = start + windowLength;
    if (hardEnd >= samples.length) {
      windows.push({ start, end: samples.length });
      break;
    }
    let bestEnd = hardEnd;
    let bestEnergy = Number.POSITIVE_INFINITY;
    for (let frameStart = hardEnd - search; frameStart + frame <= hardEnd; frameStart += frame) {
      let energy = 0;
      for (let i = frameStart; i < frameStart + frame; i += 1) energy += samples[i]! * samples[i]!;
      if (energy < bestEnergy) {
        bestEnergy = energy;
        bestEnd = frameStart + Math.floor(frame / 2);
      }
    }
    windows.push({ start, end: bestEnd });
    start = bestEnd;
  }
  return windows;
}

/** 16-bit PCM WAV of mono float samples (what every transcription endpoint accepts). */
export function wavFromSamples(samples: Float32Array, sampleRate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1) {
    const clamped = Math.max(-1, Math.min(1, samples[i]!));
    data.writeInt16LE(Math.round(clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
