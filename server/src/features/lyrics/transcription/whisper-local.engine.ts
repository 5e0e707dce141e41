import fs from 'node:fs/promises';
import path from 'node:path';
import type { Word } from '@encore/common/words.contract';
import { windowsAtQuietPoints } from './audio-windows.js';
import { assertModelId, downloadModel, missingFiles, modelFolder, type ModelFile } from './model-files.js';
import {
  ENGINE_SAMPLE_RATE,
  EngineUnavailableError,
  type EngineProgress,
  type TranscriptionEngine,
  type TranscriptionInput,
  type TranscriptionOutput,
} from './transcription-engine.js';

/**
 * Whisper on the CPU through @huggingface/transformers (onnxruntime-node), with word
 * timestamps (the model must carry cross-attention outputs: the `_timestamped` exports).
 * The library is imported only when a local transcription runs, so an idle Encore does not
 * hold it in memory. The model's files are downloaded by `model-files.ts` (progress, resume)
 * into DATA_DIR/models, or read from TRANSCRIBE_MODEL_DIR; transformers.js then loads them
 * as a local model and never goes to the network itself.
 */

/** The files transformers.js reads for a Whisper model at dtype q8. */
export const WHISPER_FILES: readonly ModelFile[] = [
  { path: 'config.json' },
  { path: 'generation_config.json' },
  { path: 'preprocessor_config.json' },
  { path: 'tokenizer.json' },
  { path: 'tokenizer_config.json' },
  { path: 'onnx/encoder_model_quantized.onnx' },
  { path: 'onnx/decoder_model_merged_quantized.onnx' },
];

/** Whisper's own window is 30 s; Encore hands it 2-minute windows and reports progress between them. */
const WINDOW_SECONDS = 120;

export interface LocalEngineOptions {
  model: string;
  modelDir: string | undefined;
  cacheDir: string;
  modelHost: string;
}

interface AsrChunk {
  text: string;
  timestamp: [number | null, number | null];
}
type Transcriber = ((audio: Float32Array, options: Record<string, unknown>) => Promise<{ text: string; chunks?: AsrChunk[] }>) & {
  dispose?: () => Promise<void>;
};

export class LocalWhisperEngine implements TranscriptionEngine {
  readonly name = 'local' as const;
  private loaded: Promise<Transcriber> | undefined;

  constructor(private readonly options: LocalEngineOptions) {}

  /** Where transformers.js looks for local models, and the id it looks under. */
  private location(): { root: string; id: string } {
    if (this.options.modelDir) return { root: path.dirname(this.options.modelDir), id: path.basename(this.options.modelDir) };
    return { root: this.options.cacheDir, id: this.options.model };
  }

  async prepare(signal: AbortSignal, progress: EngineProgress): Promise<void> {
    if (this.options.modelDir) {
      const missing = await missingFiles(
        this.options.modelDir,
        WHISPER_FILES.filter((file) => !file.optional),
      );
      if (missing.length > 0) {
        throw new EngineUnavailableError(
          `TRANSCRIBE_MODEL_DIR (${this.options.modelDir}) lacks ${missing.map((file) => file.path).join(', ')}: copy a Whisper model (ONNX, q8) there`,
          { retry: false },
        );
      }
      return;
    }
    assertModelId(this.options.model);
    await fs.mkdir(this.options.cacheDir, { recursive: true });
    await downloadModel({ host: this.options.modelHost, model: this.options.model, cacheDir: this.options.cacheDir }, WHISPER_FILES, signal, progress);
  }

  async transcribe(input: TranscriptionInput): Promise<TranscriptionOutput> {
    await input.progress(0, 'Loading the speech model');
    const transcriber = await this.load();
    const windows = windowsAtQuietPoints(input.samples, ENGINE_SAMPLE_RATE, WINDOW_SECONDS);
    const words: Word[] = [];
    for (const [index, window] of windows.entries()) {
      if (input.signal.aborted) throw input.signal.reason instanceof Error ? input.signal.reason : new Error('cancelled');
      await input.progress(index / windows.length, `Transcribing (${index + 1} of ${windows.length})`);
      const output = await transcriber(input.samples.subarray(window.start, window.end), {
        return_timestamps: 'word',
        chunk_length_s: 30,
        stride_length_s: 5,
        task: 'transcribe',
        ...(input.language ? { language: input.language } : {}),
      });
      const offset = window.start / ENGINE_SAMPLE_RATE;
      for (const chunk of output.chunks ?? []) {
        const text = chunk.text.trim();
        const [start, end] = chunk.timestamp;
        if (!text || start === null) continue;
        words.push({ text, start: round(start + offset), end: round(Math.max(start, end ?? start) + offset) });
      }
    }
    await input.progress(1, 'Transcribed');
    return { words, language: input.language };
  }

  private load(): Promise<Transcriber> {
    this.loaded ??= (async () => {
      const { root, id } = this.location();
      // Imported here, not at the top: the library and onnxruntime stay out of an idle process.
      const transformers = await import('@huggingface/transformers');
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      transformers.env.localModelPath = `${root}${path.sep}`;
      transformers.env.remoteHost = `${this.options.modelHost}/`;
      try {
        const pipe = await transformers.pipeline('automatic-speech-recognition', id, { dtype: 'q8', device: 'cpu', local_files_only: true });
        return pipe as unknown as Transcriber;
      } catch (error) {
        throw new EngineUnavailableError(
          `The speech model ${id} could not be loaded (${error instanceof Error ? error.message.slice(0, 200) : String(error)}): check TRANSCRIBE_MODEL or TRANSCRIBE_MODEL_DIR`,
        );
      }
    })().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

export { modelFolder };
