import { LYRICS_MESSAGES } from '@encore/common/lyrics.contract';
import { UnprocessableError } from '../../../platform/errors/app-errors.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { LyricsSong } from '../lyrics.service.js';
import { ENGINE_SAMPLE_RATE, type EngineProgress } from './transcription-engine.js';

/** The most audio one transcription decodes (3 hours at 16 kHz float is 690 MB: too much). */
export const MAX_TRANSCRIBE_SECONDS = 90 * 60;

/** A song from storage as 16 kHz mono float samples, decoded by the platform's ffmpeg. */
export class SongAudio {
  constructor(private readonly deps: { storage: Storage; ffmpeg: Ffmpeg }) {}

  /** From the file, not a pipe: ffmpeg must seek in an M4A whose index (moov) is at its end. */
  async decode(song: Pick<LyricsSong, 'storageKey' | 'durationSeconds'>, signal: AbortSignal, progress: EngineProgress): Promise<Float32Array> {
    const samples = await this.deps.storage.withLocalFile(song.storageKey, (file) => this.decodeFile(file, song, signal, progress));
    // ffmpeg may end without error and without a sample (a stream it cannot decode).
    if (samples.length === 0) throw new UnprocessableError(LYRICS_MESSAGES.noDecodableAudio);
    return samples;
  }

  private async decodeFile(file: string, song: Pick<LyricsSong, 'durationSeconds'>, signal: AbortSignal, progress: EngineProgress): Promise<Float32Array> {
    const pcm = this.deps.ffmpeg.decodeToPcm(file, {
      sampleRate: ENGINE_SAMPLE_RATE,
      sampleFormat: 'f32le',
      signal,
      timeoutMs: 10 * 60_000,
      ...(song.durationSeconds ? { durationSeconds: song.durationSeconds } : {}),
      onProgress: (report) => {
        if (report.percent !== undefined) void progress(report.percent / 100, 'Decoding the audio');
      },
    });
    const limit = MAX_TRANSCRIBE_SECONDS * ENGINE_SAMPLE_RATE * 4;
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of pcm) {
      const buffer = chunk as Buffer;
      if (length + buffer.length > limit) {
        pcm.destroy();
        break;
      }
      chunks.push(buffer);
      length += buffer.length;
    }
    await progress(1, 'Audio decoded');
    const bytes = Buffer.concat(chunks, length);
    const usable = bytes.length - (bytes.length % 4);
    const samples = new Float32Array(usable / 4);
    for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readFloatLE(i * 4);
    return samples;
  }
}
