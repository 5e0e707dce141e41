import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import type { ReplayGain, SongAnalysis } from '@encore/common/analysis.contract';
import { libraryEndpoints, TOTAL_COUNT_HEADER } from '@encore/common/library.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toSong, toSongListEntry } from './library.mapper.js';
import type { SongPlayFacts } from './library.port.js';
import type { LibraryService } from './library.service.js';

/** What other modules add to a song's detail (SongDetailSources); absent parts answer null / no plays. */
export interface SongDetailExtras {
  analysisOf?: (songId: number) => Promise<SongAnalysis | null>;
  replayGainOf?: (songId: number) => Promise<ReplayGain | null>;
  playsOf?: (songId: number, viewerId: number) => Promise<SongPlayFacts>;
}

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const common = { security: [{ bearer: [] }] };

/** `/files…`: browse, play, like, download and delete songs. Every call needs a signed-in user. */
export function libraryRoutes(library: LibraryService, extras: SongDetailExtras = {}): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, libraryEndpoints.list, { ...common, responses: errors }, async (request, reply) => {
      const viewerId = request.currentUser().id;
      const { records, total } = await library.list(viewerId, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return records.map((record) => toSongListEntry(record, viewerId));
    });

    // Registered before /files/:id; a static segment always wins over a parameter in Fastify anyway.
    route(app, libraryEndpoints.cover, { ...common, responses: { 204: z.null(), 304: z.null(), ...errors } }, async (request, reply) => {
      const cover = await library.cover(request.query.fileKey, request.query.size);
      if (!cover) return reply.status(204).send(null);
      reply.header('cache-control', 'private, max-age=86400').header('etag', cover.etag);
      if (matchesEtag(request.headers['if-none-match'], cover.etag)) return reply.status(304).send(null);
      const object = await cover.open();
      reply.header('content-type', cover.contentType).header('content-length', object.size).header('x-content-type-options', 'nosniff');
      return sendBytes(reply, object.stream);
    });

    route(app, libraryEndpoints.get, { ...common, responses: errors }, async (request) => {
      const viewerId = request.currentUser().id;
      const song = toSong(await library.get(request.params.id, viewerId), viewerId);
      const [analysis, replayGain, plays] = await Promise.all([
        extras.analysisOf?.(song.id),
        extras.replayGainOf?.(song.id),
        extras.playsOf?.(song.id, viewerId),
      ]);
      return {
        ...song,
        analysis: analysis ?? null,
        replayGain: replayGain ?? null,
        playCount: plays?.playCount ?? 0,
        lastPlayedAt: plays?.lastPlayedAt?.toISOString() ?? null,
      };
    });

    route(app, libraryEndpoints.playUrl, { ...common, responses: errors }, async (request) => ({ url: await library.playUrl(request.params.id) }));

    route(app, libraryEndpoints.toggleLike, { ...common, responses: errors }, async (request) =>
      library.toggleLike(request.params.id, request.currentUser().id),
    );

    route(app, libraryEndpoints.download, { ...common, responses: errors }, async (request, reply) => {
      const { object, fileName, fileType } = await library.download(request.params.id);
      reply
        .header('content-type', fileType)
        .header('content-length', object.size)
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return sendBytes(reply, object.stream);
    });

    route(app, libraryEndpoints.delete, { ...common, responses: errors }, async (request, reply) => {
      await library.delete(request.params.id, request.currentUser().id);
      return reply.status(204).send(null);
    });
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
