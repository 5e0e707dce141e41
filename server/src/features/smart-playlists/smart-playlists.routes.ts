import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { SMART_PLAYLIST_BODY_LIMIT, smartPlaylistsEndpoints } from '@encore/common/smart-playlist.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toSmartPlaylist, toSmartSongsPage } from './smart-playlists.mapper.js';
import type { SmartPlaylistsService } from './smart-playlists.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const common = { security: [{ bearer: [] }] };
// A rules body is checked against its own limit (a 400 that says how large rules may be); the request may be larger.
const withRules = { ...common, responses: errors, bodyLimit: SMART_PLAYLIST_BODY_LIMIT };

export function smartPlaylistsRoutes(service: SmartPlaylistsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);
    // A .nsp file as it is on disk (Navidrome's may hold comments, which are not JSON).
    app.addContentTypeParser(
      ['text/plain', 'application/octet-stream'],
      { parseAs: 'string', bodyLimit: SMART_PLAYLIST_BODY_LIMIT },
      (_request, body, done) => {
        done(null, typeof body === 'string' ? body : body.toString('utf8'));
      },
    );

    route(app, smartPlaylistsEndpoints.list, { ...common, responses: { 401: errorResponse } }, async (request) =>
      (await service.list(request.currentUser().id)).map(toSmartPlaylist),
    );

    route(app, smartPlaylistsEndpoints.preview, withRules, async (request) => {
      const viewerId = request.currentUser().id;
      return toSmartSongsPage(await service.preview(viewerId, request.body.rules, request.body.limit), viewerId);
    });

    route(app, smartPlaylistsEndpoints.import, withRules, async (request, reply) =>
      reply.status(201).send(toSmartPlaylist(await service.importNsp(request.currentUser().id, request.body))),
    );

    route(app, smartPlaylistsEndpoints.get, { ...common, responses: errors }, async (request) =>
      toSmartPlaylist(await service.get(request.params.id, request.currentUser().id)),
    );

    route(app, smartPlaylistsEndpoints.create, withRules, async (request, reply) =>
      reply.status(201).send(toSmartPlaylist(await service.create(request.currentUser().id, request.body))),
    );

    route(app, smartPlaylistsEndpoints.update, withRules, async (request) =>
      toSmartPlaylist(await service.update(request.params.id, request.currentUser().id, request.body)),
    );

    route(app, smartPlaylistsEndpoints.delete, { ...common, responses: errors }, async (request, reply) => {
      await service.delete(request.params.id, request.currentUser().id);
      return reply.status(204).send(null);
    });

    route(app, smartPlaylistsEndpoints.songs, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toSmartSongsPage(await service.songs(request.params.id, viewerId, request.query), viewerId);
    });

    route(app, smartPlaylistsEndpoints.exportNsp, common, async (request, reply) => {
      const { name, body } = await service.nsp(request.params.id, request.currentUser().id);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`${name}.nsp`))
        .header('cache-control', 'private, no-store')
        .send(body);
    });

    route(app, smartPlaylistsEndpoints.exportM3u8, common, async (request, reply) => {
      const origin = `${request.protocol}://${request.host}`;
      const { name, body } = await service.m3u8(request.params.id, request.currentUser().id, (url) => (url.startsWith('/') ? `${origin}${url}` : url));
      return reply
        .header('content-type', 'audio/x-mpegurl; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`${name}.m3u8`))
        .header('cache-control', 'private, no-store')
        .send(body);
    });
  };
}
