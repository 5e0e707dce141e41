import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { browseEndpoints } from '@encore/common/browse.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import type { BrowseService } from './browse.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };
const common = { security: [{ bearer: [] }] };

/** `/artists`, `/albums`, `/genres`: the collection by artist, album and genre. Every call needs a signed-in user. */
export function browseRoutes(service: BrowseService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, browseEndpoints.artists, { ...common, responses: errors }, async (request) => service.artists(request.currentUser().id, request.query));
    route(app, browseEndpoints.artist, { ...common, responses: errors }, async (request) => service.artist(request.currentUser().id, request.params.id));
    route(app, browseEndpoints.albums, { ...common, responses: errors }, async (request) => service.albums(request.currentUser().id, request.query));
    route(app, browseEndpoints.album, { ...common, responses: errors }, async (request) => service.album(request.currentUser().id, request.params.id));
    route(app, browseEndpoints.genres, { ...common, responses: errors }, async () => service.genres());

    route(app, browseEndpoints.albumDownload, { ...common, responses: { ...errors, 413: errorResponse } }, async (request, reply) => {
      const { fileName, stream } = await service.albumDownload(request.currentUser().id, request.params.id);
      // No content-length: the zip is written as its files are read.
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return sendStream(reply, stream);
    });
  };
}

/** The zip's bytes as they come (the route's JSON schemas describe its errors only). */
function sendStream(reply: FastifyReply, stream: Readable): FastifyReply {
  return reply.send(stream);
}
