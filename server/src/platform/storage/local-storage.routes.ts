import { PassThrough, Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError } from '../http/errors.js';
import { fileTooLargeError } from '../fs/byte-limit.js';
import { attachmentDisposition } from './content-disposition.js';
import { contentRange, parseRangeHeader } from './http-range.js';
import type { LocalStorage } from './local.storage.js';
import { INVALID_LINK_MESSAGE } from './local-url-signature.js';

interface ObjectRoute {
  Params: { '*': string };
  Querystring: Record<string, unknown>;
}

/**
 * Serves the local driver's signed URLs: `GET|HEAD /o/<key>` (with Range) and `PUT /o/<key>`.
 * Register at LOCAL_STORAGE_ROUTE_PREFIX. Not wrapped in fastify-plugin on purpose: the raw
 * body parser below must stay inside this plugin's encapsulated context.
 */
export function localStorageRoutes(storage: LocalStorage): FastifyPluginAsync {
  return async (app) => {
    // Uploads are streamed straight to disk, never buffered and never parsed, whatever
    // their content type; the rest of the app keeps its own parsers.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    const read = (request: FastifyRequest<ObjectRoute>, reply: FastifyReply) => serveObject(storage, request, reply);
    app.get<ObjectRoute>('/o/*', { exposeHeadRoute: false }, read);
    app.head<ObjectRoute>('/o/*', read);

    app.put<ObjectRoute>('/o/*', async (request, reply) => {
      try {
        await receiveUpload(storage, request);
      } catch (error) {
        // The client may still be sending a body we will never read: close the connection
        // after the error instead of leaving it stalled until a timeout.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
      return reply.status(200).send({});
    });
  };
}

async function receiveUpload(storage: LocalStorage, request: FastifyRequest<ObjectRoute>): Promise<void> {
  const key = request.params['*'];
  const claims = storage.verify('put', key, request.query);
  const sentType = request.headers['content-type'];
  if (claims.contentType !== undefined && !sameContentType(sentType, claims.contentType)) {
    throw new ForbiddenError(INVALID_LINK_MESSAGE);
  }
  const limit = storage.maxUploadBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw fileTooLargeError(limit);
  const body = request.body instanceof Readable ? detach(request.body) : Buffer.alloc(0);
  await storage.put(key, body, { contentType: claims.contentType ?? sentType, maxBytes: limit });
}

async function serveObject(storage: LocalStorage, request: FastifyRequest<ObjectRoute>, reply: FastifyReply) {
  const key = request.params['*'];
  const claims = storage.verify('get', key, request.query);
  const info = await storage.stat(key);
  if (!info) throw new NotFoundError();
  const range = parseRangeHeader(request.headers.range, info.size);
  const length = range ? range.end - range.start + 1 : info.size;
  // Open before any header is set, so a failure answers a plain error.
  const object = request.method === 'HEAD' ? undefined : await storage.get(key, range);
  const maxAge = Math.max(0, claims.exp - Math.floor(Date.now() / 1000));
  reply.headers({
    'accept-ranges': 'bytes',
    'content-type': claims.contentType ?? info.contentType ?? 'application/octet-stream',
    'cache-control': `private, max-age=${maxAge}`,
    // Uploaded bytes are served from Encore's own origin: never let them run as a page.
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff',
  });
  if (claims.downloadName !== undefined) reply.header('content-disposition', attachmentDisposition(claims.downloadName));
  if (range) reply.status(206).header('content-range', contentRange(range, info.size));
  if (object === undefined) return reply.header('content-length', length).send();
  // The object may have changed since stat: its own size and range are what is sent.
  const served = object.range ?? { start: 0, end: object.size - 1 };
  if (object.range) reply.header('content-range', contentRange(object.range, object.size));
  return reply.header('content-length', served.end - served.start + 1).send(object.stream);
}

/** "audio/mpeg" matches "Audio/MPEG "; parameters count, as they do for S3's signature. */
function sameContentType(sent: string | undefined, signed: string): boolean {
  return sent !== undefined && sent.trim().toLowerCase() === signed.trim().toLowerCase();
}

/**
 * Hands the upload to storage through a PassThrough, so that when storage gives up early
 * (too large) it destroys only the PassThrough, not the socket we still answer 413 on. A
 * client that disconnects mid-upload still fails the write, so no temp file lingers.
 */
function detach(source: Readable): Readable {
  const body = new PassThrough();
  source.on('error', (error) => body.destroy(error));
  source.on('close', () => {
    if (!source.readableEnded) body.destroy(new Error('The upload was interrupted.'));
  });
  source.pipe(body);
  return body;
}
