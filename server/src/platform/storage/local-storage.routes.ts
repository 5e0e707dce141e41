import { PassThrough, Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, RequestTimeoutError } from '../errors/app-errors.js';
import { fileTooLargeError } from '../fs/byte-limit.js';
import { bodyIsGone, closeAfterAnswer, UPLOAD_INTERRUPTED, UPLOAD_TOO_SLOW } from '../http/request-deadlines.js';
import { InFlightLimit } from '../rate-limit/in-flight-limit.js';
import { limitMessagesEn } from '@encore/common/limit-messages';
import { attachmentDisposition } from './content-disposition.js';
import { contentRange, parseRangeHeader } from './http-range.js';
import type { LocalStorage } from './local.storage.js';
import { MountedStorage } from './mounted.storage.js';
import { holdErrors } from '../streams/hold-errors.js';
import { INVALID_LINK_MESSAGE } from './local-url-signature.js';

interface ObjectRoute {
  Params: { '*': string };
  Querystring: Record<string, unknown>;
}

export interface UploadLimits {
  /** The whole body must arrive within this (sized by the upload limit and a minimum rate). */
  deadlineMs: number;
  /** No bytes for this long and the upload is cut off. */
  stallMs: number;
  /** Uploads in flight at once per owner (the first two key segments: `uploads/<user id>`). */
  perOwner: number;
}

export interface LocalStorageRouteOptions {
  /**
   * Asked before a signed PUT is taken (after its signature is checked): throws to refuse it,
   * e.g. a replay of the link of an upload already completed. The owner of the keys decides.
   */
  acceptPut?: (key: string) => Promise<void>;
}

export const TOO_MANY_UPLOADS = limitMessagesEn.limitUploads;
export { UPLOAD_TOO_SLOW };

/**
 * Serves the local driver's signed URLs: `GET|HEAD /o/<key>` (with Range) and `PUT /o/<key>`.
 * Register at LOCAL_STORAGE_ROUTE_PREFIX. Not wrapped in fastify-plugin on purpose: the raw
 * body parser below must stay inside this plugin's encapsulated context.
 */
export function localStorageRoutes(served: MountedStorage | LocalStorage, limits: UploadLimits, options: LocalStorageRouteOptions = {}): FastifyPluginAsync {
  const storage = served instanceof MountedStorage ? served.local : served;
  const inFlight = new InFlightLimit(limits.perOwner, TOO_MANY_UPLOADS);
  return async (app) => {
    // Uploads are streamed straight to disk, never buffered and never parsed, whatever
    // their content type; the rest of the app keeps its own parsers.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    const read = (request: FastifyRequest<ObjectRoute>, reply: FastifyReply) => serveObject(served, request, reply);
    app.get<ObjectRoute>('/o/*', { exposeHeadRoute: false }, read);
    app.head<ObjectRoute>('/o/*', read);
    // With S3, browsers PUT to S3 itself: only the mounted files are served here.
    if (!storage) return;

    // The route's own deadline answers first; the global one (a little later) is the backstop.
    const local = storage;
    app.put<ObjectRoute>('/o/*', { config: { bodyTimeoutMs: limits.deadlineMs + 2_000 } }, async (request, reply) => {
      try {
        await receiveUpload(local, request, limits, inFlight, options);
      } catch (error) {
        closeAfterAnswer(request, reply);
        throw error;
      }
      return reply.status(200).send({});
    });
  };
}

async function receiveUpload(
  storage: LocalStorage,
  request: FastifyRequest<ObjectRoute>,
  limits: UploadLimits,
  inFlight: InFlightLimit,
  options: LocalStorageRouteOptions,
): Promise<void> {
  const key = request.params['*'];
  const claims = storage.verify('put', key, request.query);
  const sentType = request.headers['content-type'];
  if (claims.contentType !== undefined && !sameContentType(sentType, claims.contentType)) {
    throw new ForbiddenError(INVALID_LINK_MESSAGE);
  }
  const limit = storage.maxUploadBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw fileTooLargeError(limit);
  await options.acceptPut?.(key);
  const leave = inFlight.enter(key.split('/').slice(0, 2).join('/'));
  const body = request.body instanceof Readable ? detach(request.body, limits) : Buffer.alloc(0);
  try {
    await storage.put(key, body, { contentType: claims.contentType ?? sentType, maxBytes: limit });
  } finally {
    // However storage ended (even before reading a byte), its timers end too: a stall timer
    // left running would fail a stream nobody listens to any more.
    if (body instanceof Readable) body.destroy();
    leave();
  }
}

async function serveObject(storage: MountedStorage | LocalStorage, request: FastifyRequest<ObjectRoute>, reply: FastifyReply) {
  const key = request.params['*'];
  const claims = storage.verify('get', key, request.query);
  // One open answers size, type and bytes; the sidecar is read only when the link names no type.
  const object = await storage.open(key, { contentType: claims.contentType === undefined });
  let range: { start: number; end: number } | undefined;
  try {
    range = parseRangeHeader(request.headers.range, object.size);
  } catch (error) {
    await object.close();
    throw error;
  }
  const maxAge = Math.max(0, claims.exp - Math.floor(Date.now() / 1000));
  reply.headers({
    'accept-ranges': 'bytes',
    'content-type': claims.contentType ?? object.contentType ?? 'application/octet-stream',
    'cache-control': `private, max-age=${maxAge}`,
    // Uploaded bytes are served from Encore's own origin: never let them run as a page.
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff',
  });
  if (claims.downloadName !== undefined) reply.header('content-disposition', attachmentDisposition(claims.downloadName));
  if (range) reply.status(206).header('content-range', contentRange(range, object.size));
  const length = range ? range.end - range.start + 1 : object.size;
  reply.header('content-length', length);
  if (request.method === 'HEAD' || length === 0) {
    await object.close();
    return reply.send();
  }
  return reply.send(object.read(range));
}

/** "audio/mpeg" matches "Audio/MPEG "; parameters count, as they do for S3's signature. */
function sameContentType(sent: string | undefined, signed: string): boolean {
  return sent !== undefined && sent.trim().toLowerCase() === signed.trim().toLowerCase();
}

/**
 * Hands the upload to storage through a PassThrough, so that when storage gives up early
 * (too large, too slow) it destroys only the PassThrough, not the socket we still answer on.
 * A client that disconnects, stalls for `stallMs` or misses the deadline fails the write, so
 * its temp file is removed at once.
 *
 * The PassThrough is listened to for errors from its creation: storage reads it only after its
 * own awaits (the folder is made first), and a client that resets its connection meanwhile
 * fails it then. An 'error' event nobody listens to would end the process; storage learns of
 * the failure from the stream's errored state when it pipes it.
 */
function detach(source: Readable, limits: UploadLimits): Readable {
  const body = holdErrors(new PassThrough());
  // Gone before its handler got here (while the link was checked): no event of it will come again.
  if (bodyIsGone(source)) {
    body.destroy(new Error(UPLOAD_INTERRUPTED));
    return body;
  }
  const tooSlow = () => body.destroy(new RequestTimeoutError(UPLOAD_TOO_SLOW));
  const deadline = setTimeout(tooSlow, limits.deadlineMs);
  let stall = setTimeout(tooSlow, limits.stallMs);
  // What Readable#pipe does, without its hold on the source: storage giving up (destroying
  // `body`) only stops the flow, and the socket stays open for the answer.
  const onData = (chunk: Buffer) => {
    clearTimeout(stall);
    stall = setTimeout(tooSlow, limits.stallMs);
    if (!body.write(chunk)) source.pause();
  };
  const onDrain = () => source.resume();
  const onEnd = () => body.end();
  const onError = (error: Error) => body.destroy(error);
  const onClose = () => {
    if (!source.readableEnded) body.destroy(new Error(UPLOAD_INTERRUPTED));
  };
  source.on('data', onData);
  source.on('end', onEnd);
  source.on('error', onError);
  source.on('close', onClose);
  body.on('drain', onDrain);
  body.on('close', () => {
    clearTimeout(deadline);
    clearTimeout(stall);
    source.off('data', onData);
    source.off('end', onEnd);
    source.off('close', onClose);
    // Left listened to: the socket may still fail while the answer is written.
    source.off('error', onError);
    holdErrors(source);
    if (!source.readableEnded) source.pause();
  });
  return body;
}
