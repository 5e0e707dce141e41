import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { musicFolderEndpoints } from '@encore/common/music-folders.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { MusicFoldersService } from './music-folders.service.js';

const common = { security: [{ bearer: [] }] };

/** `/music-folders…`: the folders, the scan's progress and report, and Scan now. */
export function musicFoldersRoutes(service: MusicFoldersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, musicFolderEndpoints.list, { ...common, responses: { 401: errorResponse } }, async (request) => service.overview(request.currentUser().id));

    route(app, musicFolderEndpoints.scan, { ...common, responses: { 401: errorResponse, 403: errorResponse, 409: errorResponse } }, async (request, reply) =>
      reply.status(202).send(await service.scanNow(request.currentUser().id)),
    );
  };
}
