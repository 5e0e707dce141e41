import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { lyricsEndpoints } from '@encore/common/lyrics.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toLyricsModel, toTranscriptResponse } from './lyrics.mapper.js';
import type { LyricsService } from './lyrics.service.js';
import type { LyricsLookupService } from './lookup/lyrics-lookup.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 413: errorResponse, 503: errorResponse };
const common = { security: [{ bearer: [] }], responses: errors };

/** `/files/:id/lyrics…`: read, write, export and look up a song's lyrics. Signed-in users only. */
export function lyricsRoutes(lyrics: LyricsService, lookup: LyricsLookupService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, lyricsEndpoints.get, common, async (request) => toLyricsModel(await lyrics.view(request.params.id, request.currentUser().id)));

    // LRC or SRT files pasted whole: up to the import cap, with room for JSON escaping.
    route(app, lyricsEndpoints.put, { ...common, bodyLimit: 2 * 1024 * 1024 }, async (request) =>
      toTranscriptResponse(await lyrics.put(request.params.id, request.currentUser().id, request.body)),
    );

    route(app, lyricsEndpoints.export, common, async (request, reply) => {
      const file = await lyrics.export(request.params.id, request.query.format);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return file.body;
    });

    route(app, lyricsEndpoints.onlineCandidates, common, async (request) => lookup.candidates(request.params.id, request.currentUser().id));

    route(app, lyricsEndpoints.applyOnline, common, async (request) =>
      toTranscriptResponse(await lookup.apply(request.params.id, request.currentUser().id, request.body)),
    );
  };
}
