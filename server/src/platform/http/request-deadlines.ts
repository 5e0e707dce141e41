import type { FastifyInstance } from 'fastify';
import { RequestTimeoutError } from '../errors/app-errors.js';
import { httpErrorOf } from './error-status.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own time for the request body to arrive (uploads: sized by the upload limit). */
    bodyTimeoutMs?: number;
  }
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
    const timer = setTimeout(() => {
      if (raw.complete) return;
      request.log.info({ limitMs: limit }, 'request body too slow; connection closed');
      if (reply.sent || reply.raw.headersSent) {
        raw.socket.destroy();
        return;
      }
      const answer = httpErrorOf(new RequestTimeoutError());
      reply.raw.once('finish', () => raw.socket.destroySoon());
      void reply.status(answer.status).headers(answer.headers).send(answer.body);
    }, limit);
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
    done();
  });
}
