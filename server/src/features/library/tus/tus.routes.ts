import type { IncomingMessage } from 'node:http';
import { resumableUpload } from '@encore/common/library.contract';
import { Server, type Upload } from '@tus/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, NotFoundError } from '../../../platform/errors/app-errors.js';
import { fileTooLargeError } from '../../../platform/fs/byte-limit.js';
import type { RequestUser } from '../../../platform/http/authentication.js';
import { httpErrorOf } from '../../../platform/http/error-status.js';
import type { Logger } from '../../../platform/logger.js';
import { InFlightLimit } from '../../../platform/rate-limit/in-flight-limit.js';
import { TOO_MANY_UPLOADS } from '../../../platform/storage/local-storage.routes.js';
import { UPLOAD_NOT_FOUND } from '../ingest/ingest.phases.js';
import type { ResumableUploadService } from './resumable-upload.service.js';
import { newTusId } from './tus-id.js';
import type { TusStaging } from './tus-stores.js';

export interface TusRouteOptions {
  service: ResumableUploadService;
  staging: TusStaging;
  logger: Logger;
  maxUploadBytes: number;
  /** One PATCH's body must arrive within this (sized like a signed PUT of the largest file). */
  bodyTimeoutMs: number;
  /** A PATCH that sends nothing for this long is cut off (the browser resumes it). */
  stallMs: number;
  /** PATCHes one user may have in flight at once. */
  perUser: number;
}

const INTERNAL = 'Something went wrong on our side. Please try again.';

/**
 * The tus 1.0.0 protocol at `resumableUpload.path` (creation, termination, expiration), spoken
 * by @tus/server; resumable-upload.service.ts holds the rules. Register behind requireUser.
 * Not wrapped in fastify-plugin on purpose: the raw body parser below stays inside this plugin.
 */
export function tusRoutes(options: TusRouteOptions): FastifyPluginAsync {
  const { service, staging, logger } = options;
  // The tus server sees web Requests; the signed-in user rides along on the Node request.
  const uploaders = new WeakMap<IncomingMessage, RequestUser>();
  const uploaderOf = (req: Request): RequestUser => {
    const raw = (req as Request & { node?: { req?: IncomingMessage } }).node?.req;
    const user = raw ? uploaders.get(raw) : undefined;
    if (!user) throw new NotFoundError(UPLOAD_NOT_FOUND);
    return user;
  };
  const urlIdOf = (storeId: string): string => {
    const id = staging.urlId(storeId);
    if (id === undefined) throw new NotFoundError(UPLOAD_NOT_FOUND);
    return id;
  };
  const inFlight = new InFlightLimit(options.perUser, TOO_MANY_UPLOADS);

  return async (app) => {
    // PATCH bodies go to the datastore as they arrive, never buffered or parsed.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const tus = new Server({
      path: `${app.prefix}${resumableUpload.path}`,
      datastore: staging.datastore,
      maxSize: options.maxUploadBytes,
      // Same origin only: no Access-Control-Allow-Origin for anyone else.
      allowedOrigins: [],
      exposedHeaders: [resumableUpload.songIdHeader],
      disableTerminationForFinishedUploads: true,
      namingFunction: (req) => staging.storeId(newTusId(uploaderOf(req).id)),
      generateUrl: (_req, { path, id }) => `${path}/${urlIdOf(id)}`,
      // A custom reader validates its own ids: only `<user id>-<hex>` is one.
      getFileIdFromRequest: (_req, lastPath) => (lastPath !== undefined && staging.urlId(staging.storeId(lastPath)) ? staging.storeId(lastPath) : undefined),
      onIncomingRequest: async (req, storeId) => {
        service.ownId(uploaderOf(req).id, urlIdOf(storeId));
      },
      onUploadCreate: async (req, upload) => {
        service.assertCreatable(upload.size, upload.metadata);
        // Refused before a byte arrives when the declared Upload-Length does not fit the quota.
        await service.assertRoom(uploaderOf(req), upload.size);
        return {};
      },
      onUploadFinish: async (req, upload: Upload) => {
        const user = uploaderOf(req);
        const finished = await service.finish(user, urlIdOf(upload.id), upload.size ?? upload.offset, upload.metadata);
        return { headers: { [resumableUpload.songIdHeader]: String(finished.songId) } };
      },
      onResponseError: async (_req, error) => tusAnswer(error, options.maxUploadBytes, logger),
    });

    const handle = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
      const user = request.currentUser();
      const id = request.params.id;
      if (request.method === 'HEAD' && id !== undefined) {
        // Whole and already a song (the answer to its last PATCH was lost): say so.
        const finished = await service.finished(user.id, id);
        if (finished) return reply.status(200).headers(finishedHeaders(finished.size, finished.songId)).send();
      }
      const leave = request.method === 'PATCH' ? inFlight.enter(`user:${user.id}`) : undefined;
      uploaders.set(request.raw, user);
      void reply.hijack();
      try {
        await tus.handle(request.raw, reply.raw);
      } catch (error) {
        // The client left before its answer could be written: nothing to tell anyone.
        logger.debug({ err: error }, 'resumable upload answer not delivered');
      } finally {
        leave?.();
      }
      return reply;
    };

    // The tus protocol (tus.io) is its own document: its routes stay out of the OpenAPI one, which
    // describes the JSON contract of common/ (the contract's `resumableUpload` describes them).
    const schema = { hide: true };
    app.route({ method: ['POST', 'OPTIONS'], url: resumableUpload.path, schema, handler: handle });
    app.route({ method: ['HEAD', 'DELETE'], url: `${resumableUpload.path}/:id`, schema, handler: handle });
    // The route's own deadline answers first; the global one (a little later) is the backstop.
    app.route({
      method: 'PATCH',
      url: `${resumableUpload.path}/:id`,
      schema,
      config: { bodyTimeoutMs: options.bodyTimeoutMs, bodyStallMs: options.stallMs },
      handler: handle,
    });
  };
}

function finishedHeaders(size: number, songId: number): Record<string, string> {
  return {
    'tus-resumable': '1.0.0',
    'upload-offset': String(size),
    'upload-length': String(size),
    'cache-control': 'no-store',
    [resumableUpload.songIdHeader.toLowerCase()]: String(songId),
    'access-control-expose-headers': `Upload-Offset, Upload-Length, Tus-Resumable, ${resumableUpload.songIdHeader}`,
  };
}

interface TusProtocolError {
  status_code: number;
  body: string;
}

function isTusProtocolError(error: unknown): error is TusProtocolError {
  return typeof error === 'object' && error !== null && typeof (error as TusProtocolError).status_code === 'number';
}

/** Every refusal answers the product's `{message}` (DECISIONS), whoever raised it. */
function tusAnswer(error: unknown, maxUploadBytes: number, logger: Logger): { status_code: number; body: string } {
  const json = (status: number, message: string) => ({ status_code: status, body: JSON.stringify({ message }) });
  if (error instanceof AppError) {
    const answer = httpErrorOf(error);
    if (answer.status >= 500) logger.error({ err: error }, error.message);
    return { status_code: answer.status, body: JSON.stringify(answer.body) };
  }
  if (isTusProtocolError(error) && error.status_code < 500) {
    if (error.status_code === 413) return json(413, fileTooLargeError(maxUploadBytes).message);
    if (error.status_code === 404 || error.status_code === 410) return json(404, UPLOAD_NOT_FOUND);
    return json(error.status_code, String(error.body ?? '').trim() || INTERNAL);
  }
  logger.error({ err: error }, 'resumable upload failed');
  return json(500, INTERNAL);
}
