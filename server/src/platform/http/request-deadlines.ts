import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestTimeoutError } from '../errors/app-errors.js';
import { httpErrorOf } from './error-status.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own time for the request body to arrive (uploads: sized by the upload limit). */
    bodyTimeoutMs?: number;
    /**
     * Uploads: a body that sends nothing for this long while the route reads it is cut off
     * (408), counted from the wait for its first byte, not only between chunks.
     */
    bodyStallMs?: number;
  }
}

export const UPLOAD_TOO_SLOW = 'The upload was too slow and has been stopped. Please try again.';
export const UPLOAD_INTERRUPTED = 'The upload was interrupted.';

/**
 * True when the client reset or closed its connection before the body was read, e.g. while the
 * route was still awaiting (a database check, a folder). Its body's 'close' has come and gone:
 * a reader that starts now would wait for events that never come, holding its spool and slot.
 */
export function bodyIsGone(body: Readable): boolean {
  return body.destroyed && !body.readableEnded;
}

export interface ServerTimeouts {
  /** Headers and body of a request must arrive within this, unless its route says otherwise. */
  requestMs: number;
  /** A connection with no traffic either way for this long is closed. */
  idleMs: number;
  /** The longest any route allows (the uploads); Node's own backstop is set just above it. */
  longestBodyMs: number;
}

/** The keep-alive wait between requests: above the 60 s idle timeout of common load balancers. */
const KEEP_ALIVE_MS = 72_000;

/** Fastify's server options for these timeouts (Node's own checks run every 30 s, so they are backstops). */
export function serverTimeoutOptions(timeouts: ServerTimeouts) {
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: Math.min(KEEP_ALIVE_MS, timeouts.idleMs),
    requestTimeout: Math.max(timeouts.requestMs, timeouts.longestBodyMs) + 5_000,
  };
}

/**
 * Slow and stalled clients cannot hold a connection: the headers must arrive within
 * `requestMs` (Node's headersTimeout), and the body within `requestMs` of the headers (or the
 * route's `config.bodyTimeoutMs`), timed here per request to the millisecond. A request that
 * misses it is answered 408 and its connection closed.
 */
export function installRequestDeadlines(app: FastifyInstance, timeouts: ServerTimeouts): void {
  app.server.headersTimeout = timeouts.requestMs;
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (raw.complete) {
      done();
      return;
    }
    const limit = request.routeOptions.config.bodyTimeoutMs ?? timeouts.requestMs;
    const timer = setTimeout(() => cutOff(request, reply, new RequestTimeoutError(), { limitMs: limit }), limit);
    const stallMs = request.routeOptions.config.bodyStallMs;
    const stopStallWatch =
      stallMs === undefined ? undefined : watchStall(raw, stallMs, () => cutOff(request, reply, new RequestTimeoutError(UPLOAD_TOO_SLOW), { stallMs }));
    const clear = () => {
      clearTimeout(timer);
      stopStallWatch?.();
    };
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
    done();
  });
}

/** Answers a request whose body is too slow with `error` (408) and closes its connection. */
function cutOff(request: FastifyRequest, reply: FastifyReply, error: RequestTimeoutError, detail: Record<string, number>): void {
  const raw = request.raw;
  if (raw.complete) return;
  request.log.info(detail, 'request body too slow; connection closed');
  // The body fails with the error, so a route still reading it (a multipart parser waiting
  // for the next part) ends instead of waiting for ever on a connection that is gone.
  if (reply.sent || reply.raw.headersSent) {
    raw.destroy(error);
    return;
  }
  const answer = httpErrorOf(error);
  reply.raw.once('finish', () => raw.destroy(error));
  void reply.status(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * Calls `onStall` when the body sends nothing for `stallMs` while someone reads it: the clock
 * runs from the moment the route starts reading (its wait for the first byte included), is
 * reset by every chunk, and stops while the reader holds the body back (backpressure is the
 * server's doing, not the client's). Returns the stop.
 */
function watchStall(raw: IncomingMessage, stallMs: number, onStall: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(onStall, stallMs);
  };
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  let counting = false;
  const onResume = () => {
    arm();
    // Listened to only once the body flows: a 'data' listener added earlier would start the
    // flow itself, and bytes would pass before the route reads them.
    if (!counting) {
      counting = true;
      raw.on('data', arm);
    }
  };
  raw.on('resume', onResume);
  raw.on('pause', disarm);
  return () => {
    disarm();
    raw.off('resume', onResume);
    raw.off('pause', disarm);
    raw.off('data', arm);
  };
}

/**
 * For a route refusing a request before reading its body: the connection closes once the
 * answer is out, instead of staying open while the client sends (or stalls) a body nobody reads.
 */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  reply.raw.once('finish', () => request.raw.socket.destroySoon());
}
