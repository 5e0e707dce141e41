import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import type { SongAnalysis } from '@encore/common/analysis.contract';
import { extractImageQuery, likeResponse, listSongsQuery, playUrlResponse, songDetail, songIdParams, songList } from '@encore/common/library.contract';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toSong } from './library.mapper.js';
import type { LibraryService } from './library.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const common = { tags: ['library'], security: [{ bearer: [] }] };

/** `/files…`: browse, play, like, download and delete songs. Every call needs a signed-in user. */
export function libraryRoutes(library: LibraryService, extras: { analysisOf?: (songId: number) => Promise<SongAnalysis | null> } = {}): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/files',
      {
        schema: {
          ...common,
          summary: 'All songs, newest first; owner=true for mine, favorites=true for every song I liked (whoever uploaded it), q to search',
          querystring: listSongsQuery,
          response: { 200: songList, ...errors },
        },
      },
      async (request) => {
        const viewerId = request.currentUser().id;
        return (await library.list(viewerId, request.query)).map((record) => toSong(record, viewerId));
      },
    );

    // Registered before /files/:id; a static segment always wins over a parameter in Fastify anyway.
    app.get(
      '/files/extract-image',
      {
        schema: {
          ...common,
          summary: "A song's cover art by the song's storage key (204 when it has none)",
          querystring: extractImageQuery,
          response: { 204: z.null(), 304: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const cover = await library.cover(request.query.fileKey, request.query.size);
        if (!cover) return reply.status(204).send(null);
        reply.header('cache-control', 'private, max-age=86400').header('etag', cover.etag);
        if (matchesEtag(request.headers['if-none-match'], cover.etag)) return reply.status(304).send(null);
        const object = await cover.open();
        reply.header('content-type', cover.contentType).header('content-length', object.size).header('x-content-type-options', 'nosniff');
        return sendBytes(reply, object.stream);
      },
    );

    app.get(
      '/files/:id',
      { schema: { ...common, summary: 'One song, with its sonic analysis (null until analysed)', params: songIdParams, response: { 200: songDetail, ...errors } } },
      async (request) => {
        const viewerId = request.currentUser().id;
        const song = toSong(await library.get(request.params.id, viewerId), viewerId);
        return { ...song, analysis: (await extras.analysisOf?.(song.id)) ?? null };
      },
    );

    app.get(
      '/files/:id/play',
      {
        schema: {
          ...common,
          summary: 'A short-lived URL that streams the song (answers HTTP Range requests)',
          params: songIdParams,
          response: { 200: playUrlResponse, ...errors },
        },
      },
      async (request) => ({ url: await library.playUrl(request.params.id) }),
    );

    app.post(
      '/files/:id/like',
      { schema: { ...common, summary: 'Like or unlike a song; returns the new state', params: songIdParams, response: { 200: likeResponse, ...errors } } },
      async (request) => library.toggleLike(request.params.id, request.currentUser().id),
    );

    app.get(
      '/files/:id/download',
      { schema: { ...common, summary: 'The original file as an attachment under its original name', params: songIdParams, response: errors } },
      async (request, reply) => {
        const { object, fileName, fileType } = await library.download(request.params.id);
        reply
          .header('content-type', fileType)
          .header('content-length', object.size)
          .header('content-disposition', attachmentDisposition(fileName))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff');
        return sendBytes(reply, object.stream);
      },
    );

    app.delete(
      '/files/:id',
      { schema: { ...common, summary: 'Delete a song and its files (uploader only)', params: songIdParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await library.delete(request.params.id, request.currentUser().id);
        return reply.status(204).send(null);
      },
    );
  };
}

/**
 * Binary answers have no JSON schema (Fastify pipes streams without serialising), so they
 * leave the typed reply here.
 */
function sendBytes(reply: FastifyReply, stream: Readable): FastifyReply {
  return reply.send(stream);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
