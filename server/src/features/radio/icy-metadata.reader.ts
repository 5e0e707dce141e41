import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

/**
 * Reads what an internet radio stream announces now: the SHOUTcast/Icecast "ICY" metadata.
 * Asked with `Icy-MetaData: 1`, such a server says in `icy-metaint` how many audio bytes come
 * between two metadata blocks; each block is one length byte (times 16) and text such as
 * `StreamTitle='Artist - Title';`. A browser's <audio> never sees those blocks, so the server
 * reads them for the web app.
 *
 * Stations are entered by admins, so any host (loopback too) may be asked; what is bounded is
 * the rest: http(s) only, redirects too; a few redirects; a deadline; a cap on bytes read.
 */

export interface IcyReadLimits {
  /** The whole read, redirects included. */
  timeoutMs: number;
  /** Audio and metadata bytes read before giving up on finding a title. */
  maxBytes: number;
  maxRedirects: number;
}

export const DEFAULT_ICY_LIMITS: IcyReadLimits = { timeoutMs: 5000, maxBytes: 512 * 1024, maxRedirects: 3 };

/** Why a stream's metadata could not be read (the station is down, slow, or not a stream). */
export class IcyReadError extends Error {}

/** What the stream says now: its title, or null when it sends no metadata or an empty title. */
export async function readIcyTitle(url: string, limits: IcyReadLimits = DEFAULT_ICY_LIMITS): Promise<string | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    let target = httpUrl(url, 'The stream URL');
    for (let redirects = 0; ; redirects++) {
      const response = await get(target, controller.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.destroy();
        if (redirects >= limits.maxRedirects) throw new IcyReadError(`The stream redirected more than ${limits.maxRedirects} times`);
        target = httpUrl(new URL(response.headers.location, target).toString(), 'The stream redirected to an address that');
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new IcyReadError(`The stream answered HTTP ${status}`);
      }
      const metaint = Number(response.headers['icy-metaint']);
      if (!Number.isInteger(metaint) || metaint <= 0) {
        response.destroy();
        return null;
      }
      return await firstTitle(response, metaint, limits.maxBytes, controller.signal);
    }
  } catch (error) {
    if (controller.signal.aborted) throw new IcyReadError(`The stream sent no metadata within ${limits.timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function httpUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new IcyReadError(`${what} is not a web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new IcyReadError(`${what} does not start with http:// or https://`);
  return url;
}

function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'GET',
        signal,
        headers: { 'icy-metadata': '1', 'user-agent': 'Encore', accept: '*/*' },
        // Its own connection (no pooling: a stream is read once), one that old SHOUTcast servers can answer on.
        createConnection: () => icyTolerant(secure ? tlsConnect({ host, port, servername: isIp(host) ? undefined : host }) : netConnect({ host, port })),
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');

/**
 * SHOUTcast 1 servers (still common) answer with the status line `ICY 200 OK`, which Node's HTTP
 * parser refuses. This connection hands the parser `HTTP/1.0 200 OK` instead; every other byte
 * passes through as it came.
 */
export function icyTolerant(socket: Socket): Duplex {
  // The answer's first bytes, held until they are known to start with "ICY " or not.
  let head: Buffer | undefined = Buffer.alloc(0);
  const connection = new Duplex({
    write(chunk: Buffer, _encoding, done) {
      socket.write(chunk, done);
    },
    final(done) {
      socket.end(done);
    },
    read() {
      socket.resume();
    },
    destroy(error, done) {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    let bytes = chunk;
    if (head) {
      const start = Buffer.concat([head, chunk]);
      if (start.length < 4 && 'ICY '.startsWith(start.toString('latin1'))) {
        head = start;
        return;
      }
      head = undefined;
      bytes = start.subarray(0, 4).toString('latin1') === 'ICY ' ? Buffer.concat([Buffer.from('HTTP/1.0 ', 'latin1'), start.subarray(4)]) : start;
    }
    if (!connection.push(bytes)) socket.pause();
  });
  socket.on('end', () => connection.push(null));
  socket.on('error', (error) => connection.destroy(error));
  socket.on('close', () => connection.destroy());
  return connection;
}

/**
 * Walks the stream block by block: `metaint` audio bytes, a length byte, that many times 16
 * bytes of metadata. An empty block means "no change"; the first block with text decides.
 */
function firstTitle(response: IncomingMessage, metaint: number, maxBytes: number, signal: AbortSignal): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let audioLeft = metaint;
    let metaLength = -1; // -1: the length byte is next
    const meta: Buffer[] = [];
    let metaRead = 0;
    let total = 0;
    const finish = (outcome: () => void) => {
      response.removeAllListeners('data');
      response.destroy();
      outcome();
    };
    const onAbort = () => finish(() => reject(new IcyReadError('aborted')));
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      total += chunk.length;
      let at = 0;
      while (at < chunk.length) {
        if (audioLeft > 0) {
          const skip = Math.min(audioLeft, chunk.length - at);
          audioLeft -= skip;
          at += skip;
        } else if (metaLength < 0) {
          metaLength = (chunk[at] ?? 0) * 16;
          at += 1;
          if (metaLength === 0) {
            metaLength = -1;
            audioLeft = metaint;
          }
        } else {
          const take = Math.min(metaLength - metaRead, chunk.length - at);
          meta.push(chunk.subarray(at, at + take));
          metaRead += take;
          at += take;
          if (metaRead === metaLength) {
            signal.removeEventListener('abort', onAbort);
            const block = Buffer.concat(meta);
            finish(() => resolve(streamTitle(block)));
            return;
          }
        }
      }
      if (total >= maxBytes) {
        signal.removeEventListener('abort', onAbort);
        finish(() => resolve(null));
      }
    });
    response.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(null);
    });
    response.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}

/** `StreamTitle='...'` of one metadata block, decoded as UTF-8 when it is valid UTF-8, else as Latin-1. */
export function streamTitle(block: Buffer): string | null {
  let end = block.length;
  while (end > 0 && block[end - 1] === 0) end--;
  const bytes = block.subarray(0, end);
  const key = Buffer.from("StreamTitle='", 'latin1');
  const start = bytes.indexOf(key);
  if (start < 0) return null;
  const from = start + key.length;
  // A title may hold apostrophes: it ends at the "';" that closes the field (or the block's last quote).
  let to = bytes.indexOf(Buffer.from("';", 'latin1'), from);
  if (to < 0) to = bytes.lastIndexOf(0x27);
  if (to < from) return null;
  const title = decode(bytes.subarray(from, to)).trim();
  return title === '' ? null : title;
}

function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}
