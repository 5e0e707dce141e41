import { z } from 'zod';
import type { Word } from '@encore/common/words.contract';
import { windowsAtQuietPoints, wavFromSamples } from './audio-windows.js';
import {
  ENGINE_SAMPLE_RATE,
  EngineUnavailableError,
  type EngineProgress,
  type TranscriptionEngine,
  type TranscriptionInput,
  type TranscriptionOutput,
} from './transcription-engine.js';
import { openAiEndpoint } from '../../../platform/net/openai-endpoint.js';
import { outboundFetch } from '../../../platform/net/outbound-fetch.js';
import { readBodyLimited } from '../../../platform/net/read-limited.js';

/**
 * Any OpenAI-compatible `/v1/audio/transcriptions` endpoint (OpenAI, Groq, faster-whisper
 * servers, whisper.cpp's server, LocalAI): multipart upload of 16 kHz mono WAV windows with
 * `response_format=verbose_json` and `timestamp_granularities[]=word`. TRANSCRIBE_API_URL may
 * be spelled with or without `/v1` (openai-endpoint.ts). Each request has a time limit; an
 * endpoint that hangs is given up on; every failure names the URL called and the setting.
 */

/** 10 minutes of 16 kHz 16-bit mono is 19 MB: under the 25 MB most endpoints accept. */
const WINDOW_SECONDS = 600;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const answer = z.object({
  text: z.string().optional(),
  language: z.string().nullish(),
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).nullish(),
  segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).nullish(),
});

const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  hebrew: 'he',
  spanish: 'es',
  french: 'fr',
  german: 'de',
  italian: 'it',
  portuguese: 'pt',
  russian: 'ru',
  arabic: 'ar',
  japanese: 'ja',
  chinese: 'zh',
  korean: 'ko',
  dutch: 'nl',
};

export interface OpenAiEngineOptions {
  apiUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  /** One request's longest wait. */
  requestTimeoutMs: number;
}

export class OpenAiTranscriptionEngine implements TranscriptionEngine {
  readonly name = 'openai' as const;

  constructor(private readonly options: OpenAiEngineOptions) {}

  async prepare(): Promise<void> {
    if (!this.options.apiUrl)
      throw new EngineUnavailableError(
        'TRANSCRIBE_ENGINE is openai but TRANSCRIBE_API_URL is not set: set it to the endpoint (e.g. https://api.openai.com/v1)',
        { retry: false },
      );
  }

  async transcribe(input: TranscriptionInput): Promise<TranscriptionOutput> {
    const windows = windowsAtQuietPoints(input.samples, ENGINE_SAMPLE_RATE, WINDOW_SECONDS);
    const words: Word[] = [];
    let language: string | null = input.language;
    for (const [index, window] of windows.entries()) {
      await input.progress(index / windows.length, windows.length > 1 ? `Transcribing part ${index + 1} of ${windows.length}` : 'Transcribing');
      const wav = wavFromSamples(input.samples.subarray(window.start, window.end), ENGINE_SAMPLE_RATE);
      const result = await this.request(wav, input.language, input.signal);
      const offset = window.start / ENGINE_SAMPLE_RATE;
      words.push(...result.words.map((word) => ({ text: word.text, start: round(word.start + offset), end: round(word.end + offset) })));
      language ??= result.language;
    }
    await input.progress(1, 'Transcribed');
    return { words, language };
  }

  private async request(wav: Buffer, language: string | null, signal: AbortSignal): Promise<TranscriptionOutput> {
    const url = openAiEndpoint(this.options.apiUrl ?? '', 'audio/transcriptions');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', this.options.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    if (language) form.append('language', language);
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs);
    let response: Response;
    try {
      response = await outboundFetch(url, {
        method: 'POST',
        body: form,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      throw this.failure(url, error, signal, timeout);
    }
    let body: string;
    try {
      body = await readBodyLimited(response, MAX_ANSWER_BYTES);
    } catch (error) {
      throw this.failure(url, error, signal, timeout);
    }
    // A refused key, a wrong address or model, a request the endpoint will never take: the same next time.
    if (!response.ok)
      throw new EngineUnavailableError(errorMessage(url, response.status, body), { retry: ![400, 401, 403, 404, 413, 415, 422].includes(response.status) });
    let parsed: z.infer<typeof answer>;
    try {
      parsed = answer.parse(JSON.parse(body));
    } catch {
      throw new EngineUnavailableError(`The transcription endpoint ${url} did not answer with verbose_json: check TRANSCRIBE_API_URL`);
    }
    return { words: wordsOf(parsed), language: languageCode(parsed.language) };
  }

  private failure(url: string, error: unknown, signal: AbortSignal, timeout: AbortSignal): Error {
    if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('cancelled');
    if (timeout.aborted)
      return new EngineUnavailableError(
        `The transcription endpoint ${url} did not answer within ${Math.round(this.options.requestTimeoutMs / 1000)} s (TRANSCRIBE_API_URL)`,
      );
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return new EngineUnavailableError(`The transcription endpoint ${url} could not be reached (${reason}): check TRANSCRIBE_API_URL`);
  }
}

function errorMessage(url: string, status: number, body: string): string {
  let detail = '';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const candidate = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message ?? parsed.detail);
    if (typeof candidate === 'string') detail = candidate;
  } catch {
    detail = '';
  }
  detail = detail
    // eslint-disable-next-line no-control-regex -- an endpoint's text is shown to a user: no control characters
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 300);
  const hint = status === 401 || status === 403 ? ': check TRANSCRIBE_API_KEY' : status === 404 ? ': check TRANSCRIBE_API_URL and TRANSCRIBE_MODEL' : '';
  return `The transcription endpoint ${url} answered ${status}${detail ? ` (${detail})` : ''}${hint}`;
}

/** Word timings when the endpoint gave them; else each segment's words share its time. */
function wordsOf(parsed: z.infer<typeof answer>): Word[] {
  if (parsed.words && parsed.words.length > 0) {
    return parsed.words
      .map((word) => ({ text: word.word.trim(), start: Math.max(0, word.start), end: Math.max(0, word.start, word.end) }))
      .filter((word) => word.text !== '');
  }
  return (parsed.segments ?? []).flatMap((segment) => {
    const tokens = segment.text.trim().split(/\s+/u).filter(Boolean);
    const step = (segment.end - segment.start) / Math.max(1, tokens.length);
    return tokens.map((text, index) => ({ text, start: segment.start + step * index, end: segment.start + step * (index + 1) }));
  });
}

function languageCode(language: string | null | undefined): string | null {
  if (!language) return null;
  const lower = language.trim().toLowerCase();
  if (/^[a-z]{2,3}$/.test(lower)) return lower;
  return LANGUAGE_NAMES[lower] ?? null;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

export type { EngineProgress };
