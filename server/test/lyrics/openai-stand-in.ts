import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server of the OpenAI transcription protocol on loopback. It reads the multipart upload,
 * checks the fields Encore must send, finds the spoken bursts in the WAV by their energy and
 * answers them as the given words (in order) with those times: real audio in, real times out.
 */
export interface StandIn {
  url: string;
  requests: { model: string; language: string | null; seconds: number; authorization: string | undefined }[];
  /**
   * What the next answers are: words (default), an error, silence (never answers), or words
   * held back until `until` settles (a transcription caught mid-request, e.g. to kill its process).
   */
  mode: { kind: 'words' } | { kind: 'error'; status: number; body: unknown } | { kind: 'hang' } | { kind: 'held'; until: Promise<void> };
  close(): Promise<void>;
}

/**
 * Also run on its own by the browser tests (e2e/transcription-stand-in.ts), so it needs nothing
 * from the server's test kit; `port` 0 picks a free one.
 */
export async function openAiStandIn(words: string[], options: { delayMs?: number; port?: number } = {}): Promise<StandIn> {
  const state: Omit<StandIn, 'url' | 'close'> = { requests: [], mode: { kind: 'words' } };
  const server = await listen(options.port ?? 0, async (request: IncomingMessage, response: ServerResponse) => {
    // The protocol's model list: what a client (or a readiness check) may ask first.
    if (request.method === 'GET' && request.url === '/v1/models') return json(response, 200, { object: 'list', data: [{ id: 'whisper-1', object: 'model' }] });
    if (request.method !== 'POST' || request.url !== '/v1/audio/transcriptions') return json(response, 404, { error: { message: 'Not found' } });
    const body = await readBody(request);
    const form = await new Request('http://stand-in/', {
      method: 'POST',
      body: new Uint8Array(body),
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob) || form.get('response_format') !== 'verbose_json' || !form.getAll('timestamp_granularities[]').includes('word')) {
      return json(response, 400, { error: { message: 'file, response_format=verbose_json and timestamp_granularities[]=word are required' } });
    }
    const wav = Buffer.from(await file.arrayBuffer());
    const sampleRate = wav.readUInt32LE(24);
    const samples = wav.length > 44 ? (wav.length - 44) / 2 : 0;
    state.requests.push({
      model: String(form.get('model')),
      language: form.get('language') === null ? null : String(form.get('language')),
      seconds: samples / sampleRate,
      authorization: request.headers.authorization,
    });
    const mode = state.mode;
    if (mode.kind === 'hang') return; // never answers
    if (mode.kind === 'error') return json(response, mode.status, mode.body);
    if (mode.kind === 'held') {
      await mode.until;
      if (request.socket.destroyed) return; // the asking process is gone
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const bursts = speechBursts(wav, sampleRate);
    json(response, 200, {
      task: 'transcribe',
      language: 'english',
      duration: samples / sampleRate,
      text: words.join(' '),
      words: bursts.slice(0, words.length).map((burst, index) => ({ word: words[index], start: burst.start, end: burst.end })),
    });
  });
  return Object.assign(state, { url: server.url, close: server.close }) as StandIn;
}

async function listen(
  port: number,
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Stretches of 20 ms frames louder than the background tone, joined across short gaps. */
export function speechBursts(wav: Buffer, sampleRate: number): { start: number; end: number }[] {
  const frame = Math.round(sampleRate * 0.02);
  const count = Math.floor((wav.length - 44) / 2);
  const loud: boolean[] = [];
  for (let start = 0; start + frame <= count; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i += 1) {
      const value = wav.readInt16LE(44 + i * 2) / 32768;
      sum += value * value;
    }
    loud.push(Math.sqrt(sum / frame) > 0.04);
  }
  const bursts: { start: number; end: number }[] = [];
  loud.forEach((isLoud, index) => {
    if (!isLoud) return;
    const time = (index * frame) / sampleRate;
    const last = bursts.at(-1);
    if (last && time - last.end < 0.25) last.end = time + frame / sampleRate;
    else bursts.push({ start: time, end: time + frame / sampleRate });
  });
  return bursts
    .filter((burst) => burst.end - burst.start >= 0.1)
    .map((burst) => ({ start: Math.round(burst.start * 100) / 100, end: Math.round(burst.end * 100) / 100 }));
}
