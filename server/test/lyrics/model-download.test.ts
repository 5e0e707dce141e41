import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadModel, modelFolder, type ModelFile } from '../../src/features/lyrics/transcription/model-files.js';
import { EngineUnavailableError } from '../../src/features/lyrics/transcription/transcription-engine.js';
import { LocalWhisperEngine, WHISPER_FILES } from '../../src/features/lyrics/transcription/whisper-local.engine.js';
import { hubStandIn, loopbackServer, tempDir } from './lyrics-test-kit.js';

const MODEL = 'test-org/whisper-tiny_timestamped';
const FILES: Record<string, Buffer> = {
  'config.json': Buffer.from('{"model_type":"whisper"}'),
  'tokenizer.json': Buffer.from('{}'),
  'onnx/encoder_model_quantized.onnx': randomBytes(300_000),
};
const LIST: ModelFile[] = [
  { path: 'config.json' },
  { path: 'generation_config.json', optional: true },
  { path: 'tokenizer.json' },
  { path: 'onnx/encoder_model_quantized.onnx' },
];

describe('the local engine’s model download (hub file layout on loopback)', () => {
  let hub: Awaited<ReturnType<typeof hubStandIn>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    hub = await hubStandIn({ [MODEL]: FILES });
    temp = await tempDir();
  });
  afterAll(async () => {
    await hub.close();
    await temp.cleanup();
  });

  it('downloads with progress, resumes a cut download from its part file, and skips an optional file the hub lacks', async () => {
    const cacheDir = path.join(temp.dir, 'models');
    const signal = new AbortController().signal;
    const reports: { fraction: number; phase: string }[] = [];
    hub.cutNextBigDownload = true;
    const first = downloadModel({ host: hub.url, model: MODEL, cacheDir }, LIST, signal, async (fraction, phase) => void reports.push({ fraction, phase }));
    await expect(first).rejects.toThrow(/resumes on the next try/);
    const folder = modelFolder(cacheDir, MODEL);
    const part = await fs.stat(path.join(folder, 'onnx/encoder_model_quantized.onnx.part'));
    expect(part.size).toBeGreaterThan(0);
    await expect(fs.stat(path.join(folder, 'onnx/encoder_model_quantized.onnx'))).rejects.toThrow();

    await downloadModel({ host: hub.url, model: MODEL, cacheDir }, LIST, signal, async (fraction, phase) => void reports.push({ fraction, phase }));
    expect(hub.ranges).toEqual([`bytes=${part.size}-`]);
    expect(await fs.readFile(path.join(folder, 'onnx/encoder_model_quantized.onnx'))).toEqual(FILES['onnx/encoder_model_quantized.onnx']);
    expect(await fs.readFile(path.join(folder, 'config.json'))).toEqual(FILES['config.json']);
    expect(reports.at(-1)).toEqual({ fraction: 1, phase: 'Speech model ready' });
    expect(reports.some((report) => report.phase.startsWith('Downloading the speech model'))).toBe(true);

    // Complete: nothing is fetched again.
    const gets = hub.gets;
    await downloadModel({ host: hub.url, model: MODEL, cacheDir }, LIST, signal, async () => undefined);
    expect(hub.gets).toBe(gets);
  });

  it('gives up on a download that goes silent, keeps its part, and resumes it on the next try', async () => {
    const cacheDir = path.join(temp.dir, 'stalled');
    const signal = new AbortController().signal;
    hub.stallNextBigDownload = true;
    hub.ranges.length = 0;
    // Bounded by the test's time limit: without a silence limit this download would wait for ever.
    await expect(downloadModel({ host: hub.url, model: MODEL, cacheDir, stallMs: 500 }, LIST, signal, async () => undefined)).rejects.toThrow(
      /stopped \(no data for 0.5 s\); it resumes on the next try/,
    );
    const part = await fs.stat(path.join(modelFolder(cacheDir, MODEL), 'onnx/encoder_model_quantized.onnx.part'));
    expect(part.size).toBeGreaterThan(0);
    await downloadModel({ host: hub.url, model: MODEL, cacheDir, stallMs: 500 }, LIST, signal, async () => undefined);
    expect(hub.ranges).toEqual([`bytes=${part.size}-`]);
    expect(await fs.readFile(path.join(modelFolder(cacheDir, MODEL), 'onnx/encoder_model_quantized.onnx'))).toEqual(FILES['onnx/encoder_model_quantized.onnx']);
  });

  it('fails with what to set when the model is unknown or the host cannot be reached', async () => {
    const signal = new AbortController().signal;
    await expect(
      downloadModel({ host: hub.url, model: 'test-org/missing', cacheDir: path.join(temp.dir, 'm2') }, LIST, signal, async () => undefined),
    ).rejects.toThrow('The model test-org/missing has no file config.json at');
    const gone = await loopbackServer(() => undefined);
    await gone.close();
    const offline = downloadModel({ host: gone.url, model: MODEL, cacheDir: path.join(temp.dir, 'm3') }, LIST, signal, async () => undefined);
    await expect(offline).rejects.toBeInstanceOf(EngineUnavailableError);
    await expect(offline).rejects.toThrow(/set TRANSCRIBE_MODEL_DIR/);
    await expect(downloadModel({ host: hub.url, model: '../etc', cacheDir: temp.dir }, LIST, signal, async () => undefined)).rejects.toThrow(
      /is not a model id/,
    );
  });

  it('follows a mirror’s redirects within its own host and port, and none to another port, which is never asked', async () => {
    const signal = new AbortController().signal;
    const prefix = `/${MODEL}/resolve/main/`;
    const serve = (file: Buffer | undefined, request: IncomingMessage, response: ServerResponse) => {
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-length': String(file.length) });
      response.end(request.method === 'HEAD' ? undefined : file);
    };
    // Serves each file under /files/, and redirects the hub layout there (as the hub does for small files).
    const mirror = await loopbackServer((request, response) => {
      const url = request.url ?? '/';
      if (url.startsWith(prefix)) return void response.writeHead(302, { location: `/files/${url.slice(prefix.length)}` }).end();
      serve(url.startsWith('/files/') ? FILES[decodeURIComponent(url.slice('/files/'.length))] : undefined, request, response);
    });
    // A server on another port that would answer every file, and counts who asks.
    const asked: string[] = [];
    const other = await loopbackServer((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      serve(FILES[decodeURIComponent((request.url ?? '').slice(prefix.length))], request, response);
    });
    const away = await loopbackServer((request, response) => void response.writeHead(302, { location: `${other.url}${request.url ?? '/'}` }).end());
    try {
      const cacheDir = path.join(temp.dir, 'redirects');
      await downloadModel({ host: mirror.url, model: MODEL, cacheDir }, LIST, signal, async () => undefined);
      expect(await fs.readFile(path.join(modelFolder(cacheDir, MODEL), 'onnx/encoder_model_quantized.onnx'))).toEqual(
        FILES['onnx/encoder_model_quantized.onnx'],
      );

      const elsewhere = downloadModel({ host: away.url, model: MODEL, cacheDir: path.join(temp.dir, 'redirected-away') }, LIST, signal, async () => undefined);
      await expect(elsewhere).rejects.toBeInstanceOf(EngineUnavailableError);
      await expect(elsewhere).rejects.toThrow(`redirected to ${other.url}${prefix}config.json, another host or port`);
      expect(asked).toEqual([]);
    } finally {
      await mirror.close();
      await other.close();
      await away.close();
    }
  });

  it('reads an offline install from TRANSCRIBE_MODEL_DIR without the network, and says which files it lacks', async () => {
    const dir = path.join(temp.dir, 'offline', 'whisper-base');
    const gone = await loopbackServer(() => undefined);
    await gone.close();
    const engine = new LocalWhisperEngine({ model: 'ignored', modelDir: dir, cacheDir: path.join(temp.dir, 'unused'), modelHost: gone.url });
    const signal = new AbortController().signal;
    await fs.mkdir(path.join(dir, 'onnx'), { recursive: true });
    await fs.writeFile(path.join(dir, 'config.json'), '{}');
    await expect(engine.prepare(signal, async () => undefined)).rejects.toThrow(
      /TRANSCRIBE_MODEL_DIR \(.*\) lacks generation_config.json, preprocessor_config.json/,
    );
    for (const file of WHISPER_FILES) await fs.writeFile(path.join(dir, file.path), '{}');
    await engine.prepare(signal, async () => undefined);
    // Files that are not a model: the library (imported only now) refuses them, with a message that says what to check.
    await expect(engine.transcribe({ samples: new Float32Array(16_000), language: null, signal, progress: async () => undefined })).rejects.toThrow(
      /could not be loaded .*check TRANSCRIBE_MODEL or TRANSCRIBE_MODEL_DIR/s,
    );
  }, 60_000);
});
