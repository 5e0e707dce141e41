import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { playlistsEndpoints } from '@encore/common/playlists.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toPlaylist, toPlaylistSummary } from './playlists.mapper.js';
import type { PlaylistsService } from './playlists.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const common = { security: [{ bearer: [] }] };

export function playlistsRoutes(service: PlaylistsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, playlistsEndpoints.list, { ...common, responses: { 401: errorResponse } }, async (request) =>
      (await service.list(request.currentUser().id)).map(toPlaylistSummary),
    );

    route(app, playlistsEndpoints.get, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.get(request.params.id, viewerId), viewerId);
    });

    route(app, playlistsEndpoints.create, { ...common, responses: errors }, async (request, reply) => {
      const viewerId = request.currentUser().id;
      return reply.status(201).send(toPlaylist(await service.create(viewerId, request.body), viewerId));
    });

    route(app, playlistsEndpoints.update, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.update(request.params.id, viewerId, request.body), viewerId);
    });

    route(app, playlistsEndpoints.patch, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.setKeepFresh(request.params.id, viewerId, request.body.keepFresh), viewerId);
    });

    route(app, playlistsEndpoints.delete, { ...common, responses: errors }, async (request, reply) => {
      await service.delete(request.params.id, request.currentUser().id);
      return reply.status(204).send(null);
    });

    route(app, playlistsEndpoints.addSong, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      const { songIds, many } = request.body;
      const added = many
        ? await service.addSongs(request.params.id, viewerId, songIds)
        : await service.addSong(request.params.id, viewerId, songIds[0] as number);
      return toPlaylist(added, viewerId);
    });

    route(app, playlistsEndpoints.reorder, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.reorder(request.params.id, viewerId, request.body.songIds), viewerId);
    });

    route(app, playlistsEndpoints.removeSong, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.removeSong(request.params.id, viewerId, request.params.songId), viewerId);
    });

    // The file's text in JSON: up to 1 MiB of text, which escaping may make longer; the contract refuses more than 1 MiB.
    route(app, playlistsEndpoints.importM3u, { ...common, responses: errors, bodyLimit: 8 * 1024 * 1024 }, async (request) => {
      const viewerId = request.currentUser().id;
      const { playlist, report } = await service.importM3u(request.params.id, viewerId, request.body.text);
      return { playlist: toPlaylist(playlist, viewerId), report };
    });

    route(app, playlistsEndpoints.exportM3u8, common, async (request, reply) => {
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
