import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { song, uploadEndpoints } from '@encore/common/library.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { IngestService } from './ingest/ingest.service.js';
import { toSong } from './library.mapper.js';
import { tusRoutes, type TusRouteOptions } from './tus/tus.routes.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 413: errorResponse, 415: errorResponse, 422: errorResponse, 429: errorResponse };
const common = { security: [{ bearer: [] }] };

/**
 * `/upload…`: the presigned URL and upload-complete steps of SPEC 7's three-step upload, and
 * (when given) the resumable uploads of tus.routes.ts, behind the same sign-in.
 */
export function uploadRoutes(ingest: IngestService, resumable?: TusRouteOptions): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, uploadEndpoints.presignedUrl, { ...common, responses: errors }, async (request) => {
      // A full storage takes no upload (413 with the figures; USER_STORAGE_MB).
      await ingest.assertRoom(request.currentUser());
      return ingest.presign(request.currentUser().id, request.query.fileName, request.query.contentType);
    });

    route(app, uploadEndpoints.complete, { ...common, responses: { 200: song, ...errors } }, async (request, reply) => {
      const user = request.currentUser();
      const { song: added, created } = await ingest.complete(user, request.body);
      return reply.status(created ? 201 : 200).send(toSong(added, user.id));
    });

    if (resumable) await app.register(tusRoutes(resumable));
  };
}
