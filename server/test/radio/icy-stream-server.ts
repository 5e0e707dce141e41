import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that streams like an Icecast/SHOUTcast station: audio bytes
 * (silence here) and, when asked with `Icy-MetaData: 1`, a metadata block every `icy-metaint`
 * bytes. Paths:
 * - /station?title=...&metaint=N&blank=K  K empty blocks, then `StreamTitle='title';` (UTF-8)
 * - /latin1?title=...                    the title's bytes in Latin-1
 * - /no-metadata                         audio only, no icy-metaint
 * - /stall                               headers and a few bytes, then nothing
 * - /huge-interval                       an icy-metaint larger than any reader's cap
 * - /redirect?to=...                     302 to `to`
 * - /loop                                302 to itself
 * - /missing                             404
 */
export interface IcyStreamServer {
  origin: string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

function metadataBlock(text: Buffer): Buffer {
  const length = Math.ceil(text.length / 16);
  const block = Buffer.alloc(1 + length * 16);
  block[0] = length;
  text.copy(block, 1);
  return block;
}

function stream(request: IncomingMessage, response: ServerResponse, metaint: number, blocks: Buffer[]): void {
  const wantsMetadata = request.headers['icy-metadata'] === '1';
  response.writeHead(200, { 'content-type': 'audio/mpeg', ...(wantsMetadata ? { 'icy-metaint': String(metaint), 'icy-name': 'Test FM' } : {}) });
  const audio = Buffer.alloc(metaint, 0xff);
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    response.write(audio);
    if (wantsMetadata) response.write(blocks[Math.min(sent, blocks.length - 1)] ?? metadataBlock(Buffer.alloc(0)));
    sent++;
  }, 5);
  response.on('close', () => clearInterval(timer));
}

export async function startIcyStreamServer(): Promise<IcyStreamServer> {
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    open.add(response);
    response.on('close', () => open.delete(response));
    const title = url.searchParams.get('title') ?? 'Test Artist - Test Song';
    const metaint = Number(url.searchParams.get('metaint') ?? '1000');
    switch (url.pathname) {
      case '/station': {
        const blank = Number(url.searchParams.get('blank') ?? '0');
        const titled = metadataBlock(Buffer.from(`StreamTitle='${title}';StreamUrl='';`, 'utf8'));
        return stream(request, response, metaint, [...Array.from({ length: blank }, () => Buffer.from([0])), titled]);
      }
      case '/latin1':
        return stream(request, response, metaint, [metadataBlock(Buffer.from(`StreamTitle='${title}';`, 'latin1'))]);
      case '/no-metadata':
        response.writeHead(200, { 'content-type': 'audio/mpeg' });
        response.write(Buffer.alloc(4096));
        return;
      case '/stall':
        response.writeHead(200, { 'content-type': 'audio/mpeg', 'icy-metaint': '8192' });
        response.write(Buffer.alloc(100));
        return;
      case '/huge-interval':
        return stream(request, response, 64 * 1024, [metadataBlock(Buffer.from("StreamTitle='Too far';"))]);
      case '/redirect':
        response.writeHead(302, { location: url.searchParams.get('to') ?? '/station' });
        return void response.end();
      case '/loop':
        response.writeHead(302, { location: '/loop' });
        return void response.end();
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        return void response.end('no such station');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A SHOUTcast 1 server on 127.0.0.1: not HTTP but `ICY 200 OK` as its status line, the answer
 * sent in small pieces (the first two bytes alone), then audio with a metadata block every
 * `metaint` bytes. Every request is answered so, whatever it asks.
 */
export async function startShoutcastV1Server(title: string, metaint = 64): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', () => {
      const head = `ICY 200 OK\r\nicy-notice1: SHOUTcast\r\nicy-name: Old FM\r\ncontent-type: audio/mpeg\r\nicy-metaint: ${metaint}\r\n\r\n`;
      socket.write(head.slice(0, 2));
      socket.write(head.slice(2, 7));
      socket.write(head.slice(7));
      socket.write(Buffer.alloc(metaint, 0xff));
      socket.write(metadataBlock(Buffer.from(`StreamTitle='${title}';`, 'utf8')));
      socket.write(Buffer.alloc(metaint, 0xff));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
