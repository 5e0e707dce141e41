import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { outboundFetch } from '../../../platform/net/outbound-fetch.js';
import { EngineUnavailableError, type EngineProgress } from './transcription-engine.js';

/**
 * A model's files from the hub's file layout (`<host>/<model>/resolve/<revision>/<file>`),
 * kept in `<cacheDir>/<model>/<file>`. Downloads go to `<file>.part` and resume from it with a
 * Range request; a file is renamed into place only when complete, so a crash never leaves a
 * half file that looks whole. Progress is the bytes of all files together.
 */

export interface ModelFile {
  path: string;
  /** An optional file may be missing on the hub (404). */
  optional?: boolean;
}

export interface ModelSource {
  host: string;
  model: string;
  revision?: string;
  cacheDir: string;
  /** The longest wait for an answer, and the longest silence within a file, before giving up. */
  stallMs?: number;
}

const DEFAULT_STALL_MS = 60_000;
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

export function assertModelId(model: string): void {
  if (!MODEL_ID.test(model) || model.includes('..'))
    throw new EngineUnavailableError(`TRANSCRIBE_MODEL "${model}" is not a model id such as onnx-community/whisper-base_timestamped`, { retry: false });
}

/** The folder of a model under the cache (where transformers.js finds it as a local model). */
export function modelFolder(cacheDir: string, model: string): string {
  return path.join(cacheDir, ...model.split('/'));
}

/** Which of `files` are not complete on disk (optional ones that the hub lacked are remembered). */
export async function missingFiles(folder: string, files: readonly ModelFile[]): Promise<ModelFile[]> {
  const missing: ModelFile[] = [];
  for (const file of files) {
    const present = await exists(path.join(folder, file.path));
    const absentOnHub = file.optional && (await exists(path.join(folder, `${file.path}.absent`)));
    if (!present && !absentOnHub) missing.push(file);
  }
  return missing;
}

export async function downloadModel(source: ModelSource, files: readonly ModelFile[], signal: AbortSignal, progress: EngineProgress): Promise<void> {
  assertModelId(source.model);
  const folder = modelFolder(source.cacheDir, source.model);
  const missing = await missingFiles(folder, files);
  if (missing.length === 0) return;
  const revision = source.revision ?? 'main';
  // Sizes first (HEAD), so progress is over every byte still to fetch.
  const sizes = new Map<string, number | null>();
  for (const file of missing) sizes.set(file.path, await remoteSize(source, revision, file, signal));
  const total = [...sizes.values()].reduce<number>((sum, size) => sum + (size ?? 0), 0);
  let done = 0;
  for (const file of missing) {
    const size = sizes.get(file.path) ?? null;
    const target = path.join(folder, file.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (size === null && file.optional) {
      await fs.writeFile(`${target}.absent`, '');
      continue;
    }
    const before = done;
    await downloadFile(source, revision, file, target, signal, async (bytes) => {
      done = before + bytes;
      await progress(total > 0 ? Math.min(1, done / total) : 0, `Downloading the speech model (${megabytes(done)} of ${megabytes(total)} MB)`);
    });
    done = before + (size ?? 0);
  }
  await progress(1, 'Speech model ready');
}

function fileUrl(source: ModelSource, revision: string, file: ModelFile): string {
  const encoded = file.path.split('/').map(encodeURIComponent).join('/');
  return `${source.host}/${source.model}/resolve/${encodeURIComponent(revision)}/${encoded}`;
}

async function remoteSize(source: ModelSource, revision: string, file: ModelFile, signal: AbortSignal): Promise<number | null> {
  const response = await request(fileUrl(source, revision, file), { method: 'HEAD' }, signal, source);
  if (response.status === 404) {
    if (file.optional) return null;
    throw new EngineUnavailableError(`The model ${source.model} has no file ${file.path} at ${source.host}: check TRANSCRIBE_MODEL`, { retry: false });
  }
  if (!response.ok)
    throw new EngineUnavailableError(
      `The model host answered ${response.status} for ${file.path}: check TRANSCRIBE_MODEL_HOST, or set TRANSCRIBE_MODEL_DIR to a folder holding the model`,
    );
  const length = Number(response.headers.get('x-linked-size') ?? response.headers.get('content-length'));
  return Number.isFinite(length) && length >= 0 ? length : 0;
}

async function downloadFile(
  source: ModelSource,
  revision: string,
  file: ModelFile,
  target: string,
  signal: AbortSignal,
  onBytes: (bytes: number) => Promise<void>,
): Promise<void> {
  const part = `${target}.part`;
  const have = (await fs.stat(part).catch(() => undefined))?.size ?? 0;
  const response = await request(fileUrl(source, revision, file), { method: 'GET', headers: have > 0 ? { range: `bytes=${have}-` } : {} }, signal, source);
  let resumedFrom = 0;
  if (response.status === 206 && have > 0) resumedFrom = have;
  else if (response.status === 416 && have > 0) {
    // The part is already whole (the crash came between the last byte and the rename).
    await response.body?.cancel();
    await fs.rename(part, target);
    return;
  } else if (!response.ok) {
    await response.body?.cancel();
    throw new EngineUnavailableError(
      `Downloading ${file.path} of ${source.model} failed (${response.status}): check TRANSCRIBE_MODEL_HOST, or set TRANSCRIBE_MODEL_DIR`,
    );
  }
  const expected = contentTotal(response, resumedFrom);
  if (!response.body) throw new EngineUnavailableError(`Downloading ${file.path} failed: an empty answer`);
  let received = resumedFrom;
  let lastReport = 0;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const stallMs = source.stallMs ?? DEFAULT_STALL_MS;
  // A hub that stops sending mid-file: give up after a silence; the part resumes next time.
  const silence = setTimeout(() => body.destroy(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
  body.on('data', (chunk: Buffer) => {
    silence.refresh();
    received += chunk.length;
    const now = Date.now();
    if (now - lastReport > 250) {
      lastReport = now;
      void onBytes(received);
    }
  });
  try {
    await pipeline(body, createWriteStream(part, { flags: resumedFrom > 0 ? 'a' : 'w' }), { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new EngineUnavailableError(
      `Downloading ${file.path} of ${source.model} stopped (${error instanceof Error ? error.message : String(error)}); it resumes on the next try`,
    );
  } finally {
    clearTimeout(silence);
  }
  if (expected !== null && received !== expected) {
    throw new EngineUnavailableError(`Downloading ${file.path} of ${source.model} ended early (${received} of ${expected} bytes); it resumes on the next try`);
  }
  await fs.rename(part, target);
  await onBytes(received);
}

function contentTotal(response: Response, resumedFrom: number): number | null {
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && response.headers.has('content-length') ? resumedFrom + length : null;
}

async function request(url: string, init: RequestInit, signal: AbortSignal, source: ModelSource): Promise<Response> {
  const stallMs = source.stallMs ?? DEFAULT_STALL_MS;
  // Bounds the wait for the answer only: once it came, a GET's body is watched for silences.
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(new Error(`no answer within ${stallMs / 1000} s`)), stallMs);
  try {
    return await outboundFetch(url, { ...init, signal: AbortSignal.any([signal, waiting.signal]) }, { mayRedirectTo: hubDownloadHosts(source.host) });
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new EngineUnavailableError(
      `The speech model could not be downloaded from ${source.host} (${reason}): connect Encore to the internet, or set TRANSCRIBE_MODEL_DIR to a folder holding ${source.model}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The hub answers large files with a redirect to its download hosts (under hf.co); those are
 * followed over https. A mirror's redirects stay on the mirror's own host and port.
 */
function hubDownloadHosts(host: string): (url: URL) => boolean {
  const configured = new URL(host).hostname;
  if (configured !== 'huggingface.co' && configured !== 'hf.co') return () => false;
  return (url) => url.protocol === 'https:' && /(^|\.)(hf\.co|huggingface\.co)$/u.test(url.hostname);
}

async function exists(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => undefined))?.isFile() === true;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
