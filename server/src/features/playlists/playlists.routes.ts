import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addPlaylistSongBody,
  createPlaylistBody,
  playlist,
  playlistIdParams,
  playlistSongParams,
  playlistSummary,
  reorderPlaylistBody,
  updatePlaylistBody,
} from '@encore/common/playlists.contract';
import { errorResponse } from '@encore/common/http.contract';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toPlaylist, toPlaylistSummary } from './playlists.mapper.js';
import type { PlaylistsService } from './playlists.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const common = { tags: ['playlists'], security: [{ bearer: [] }] };

export function playlistsRoutes(service: PlaylistsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get('/playlists', { schema: { ...common, summary: "The caller's playlists", response: { 200: z.array(playlistSummary), 401: errorResponse } } }, async (request) =>
      (await service.list(request.currentUser().id)).map(toPlaylistSummary),
    );

    app.get('/playlists/:id', { schema: { ...common, summary: 'One playlist with its songs in order', params: playlistIdParams, response: { 200: playlist, ...errors } } }, async (request) => {
      const viewerId = request.currentUser().id;
      return toPlaylist(await service.get(request.params.id, viewerId), viewerId);
    });

    app.post('/playlists', { schema: { ...common, summary: 'Create a playlist', body: createPlaylistBody, response: { 201: playlist, ...errors } } }, async (request, reply) => {
      const viewerId = request.currentUser().id;
      return reply.status(201).send(toPlaylist(await service.create(viewerId, request.body), viewerId));
    });

    app.put(
      '/playlists/:id',
      { schema: { ...common, summary: 'Rename or describe a playlist', params: playlistIdParams, body: updatePlaylistBody, response: { 200: playlist, ...errors } } },
      async (request) => {
        const viewerId = request.currentUser().id;
        return toPlaylist(await service.update(request.params.id, viewerId, request.body), viewerId);
      },
    );

    app.delete('/playlists/:id', { schema: { ...common, summary: 'Delete a playlist (its songs stay in the library)', params: playlistIdParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
      await service.delete(request.params.id, request.currentUser().id);
      return reply.status(204).send(null);
    });

    app.post(
      '/playlists/:id/songs',
      { schema: { ...common, summary: 'Append a song', params: playlistIdParams, body: addPlaylistSongBody, response: { 200: playlist, ...errors } } },
      async (request) => {
        const viewerId = request.currentUser().id;
        return toPlaylist(await service.addSong(request.params.id, viewerId, request.body.songId), viewerId);
      },
    );

    app.put(
      '/playlists/:id/songs',
      { schema: { ...common, summary: 'Reorder: the full ordered list of song ids', params: playlistIdParams, body: reorderPlaylistBody, response: { 200: playlist, ...errors } } },
      async (request) => {
        const viewerId = request.currentUser().id;
        return toPlaylist(await service.reorder(request.params.id, viewerId, request.body.songIds), viewerId);
      },
    );

    app.delete(
      '/playlists/:id/songs/:songId',
      { schema: { ...common, summary: 'Remove a song from the playlist', params: playlistSongParams, response: { 200: playlist, ...errors } } },
      async (request) => {
        const viewerId = request.currentUser().id;
        return toPlaylist(await service.removeSong(request.params.id, viewerId, request.params.songId), viewerId);
      },
    );

    app.get('/playlists/:id/m3u8', { schema: { ...common, summary: 'Export as M3U8 with signed stream links', params: playlistIdParams } }, async (request, reply) => {
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
