/**
 * Resumable uploads (issue 27): a 100 MB WAV sent with tus-js-client (8 MiB PATCHes, as the web
 * app sends them) through a loopback TCP relay that cuts the connection once, midway; the upload
 * resumes from the server's offset and becomes a song whose bytes are the original's (sha256).
 * Then the same file without a cut, for comparison. PGlite, local storage. Prints figures only.
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { resumableUpload } from '@encore/common/library.contract';
import { Upload } from 'tus-js-client';
import { fmt, startBenchApp } from './bench-app.js';

const SIZE = 100 * 1024 * 1024;

function wav(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(176_400, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, randomBytes(dataBytes)]);
}

/** A relay to `port` that destroys the first connection to carry more than `cutAfter` bytes upstream. */
async function cuttingRelay(port: number, cutAfter: number | undefined): Promise<{ port: number; cuts: () => number; close(): Promise<void> }> {
  let cut = cutAfter === undefined;
  let cuts = 0;
  let carried = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    client.on('data', (chunk: Buffer) => {
      carried += chunk.length;
      if (!cut && carried > (cutAfter ?? 0)) {
        cut = true;
        cuts += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cuts: () => cuts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function send(endpoint: string, token: string, bytes: Buffer): Promise<{ songId: number; ms: number; patches: number; heads: number }> {
  let patches = 0;
  let heads = 0;
  const started = performance.now();
  const songId = await new Promise<number>((resolve, reject) => {
    const upload = new Upload(bytes, {
      endpoint,
      chunkSize: resumableUpload.chunkBytes,
      retryDelays: [0, 100, 500, 1000],
      uploadSize: bytes.length,
      metadata: { filename: 'Hundred Megabytes.wav', filetype: 'audio/wav' },
      headers: { Authorization: `Bearer ${token}` },
      storeFingerprintForResuming: false,
      onBeforeRequest: (request) => {
        if (request.getMethod() === 'PATCH') patches += 1;
        if (request.getMethod() === 'HEAD') heads += 1;
      },
      onSuccess: ({ lastResponse }) => resolve(Number(lastResponse.getHeader(resumableUpload.songIdHeader))),
      onError: reject,
    });
    upload.start();
  });
  return { songId, ms: performance.now() - started, patches, heads };
}

const bench = await startBenchApp('pglite', { MAX_UPLOAD_MB: '200' });
try {
  const address = await bench.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  const bytes = wav(SIZE - 44);
  const original = createHash('sha256').update(bytes).digest('hex');
  for (const cutAfter of [Math.round(SIZE * 0.45), undefined]) {
    const relay = await cuttingRelay(port, cutAfter);
    const result = await send(`http://127.0.0.1:${relay.port}/api${resumableUpload.path}`, bench.token, bytes);
    await relay.close();
    const song = (await bench.app.inject({ url: `/api/files/${result.songId}/play`, headers: { authorization: `Bearer ${bench.token}` } })).json<{
      url: string;
    }>();
    const stored = await bench.app.inject({ url: song.url });
    const same = createHash('sha256').update(stored.rawPayload).digest('hex') === original;
    const label = cutAfter === undefined ? 'no cut' : `cut once at ${fmt(cutAfter / 1024 / 1024)} MB`;
    console.log(
      `100 MB WAV, ${label}: ${fmt(result.ms)} ms (${fmt(SIZE / 1024 / 1024 / (result.ms / 1000))} MB/s), ${result.patches} PATCHes, ${result.heads} HEADs, ` +
        `${relay.cuts()} cut(s), song ${result.songId}, bytes ${same ? 'identical (sha256)' : 'DIFFERENT'}`,
    );
    if (!same) process.exitCode = 1;
  }
} finally {
  await bench.close();
}
