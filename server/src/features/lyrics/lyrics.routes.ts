import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '@encore/common/http.contract';
import { songIdParams } from '@encore/common/library.contract';
import { applyCandidateBody, lyricsCandidates, lyricsExportQuery, lyricsModel, lyricsTranscriptResponse, putLyricsBody } from '@encore/common/lyrics.contract';
import { attachmentDisposition } from '../../platform/storage/content-disposition.js';
import { toLyricsModel, toTranscriptResponse } from './lyrics.mapper.js';
import type { LyricsService } from './lyrics.service.js';
import type { LyricsLookupService } from './lookup/lyrics-lookup.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 413: errorResponse, 503: errorResponse };
const common = { tags: ['lyrics'], security: [{ bearer: [] }] };

/** `/files/:id/lyrics…`: read, write, export and look up a song's lyrics. Signed-in users only. */
export function lyricsRoutes(lyrics: LyricsService, lookup: LyricsLookupService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/files/:id/lyrics',
      { schema: { ...common, summary: "A song's lyrics: text, SPEC 3's timed lines and words, source, language", params: songIdParams, response: { 200: lyricsModel, ...errors } } },
      async (request) => toLyricsModel(await lyrics.view(request.params.id, request.currentUser().id)),
    );

    app.put(
      '/files/:id/lyrics',
      {
        // LRC or SRT files pasted whole: up to the import cap, with room for JSON escaping.
        bodyLimit: 2 * 1024 * 1024,
        schema: {
          ...common,
          summary: 'Store lyrics: {transcript} (plain text, LRC/ELRC or SRT, detected) and/or {words}; answers the transcript',
          params: songIdParams,
          body: putLyricsBody,
          response: { 200: lyricsTranscriptResponse, ...errors },
        },
      },
      async (request) => toTranscriptResponse(await lyrics.put(request.params.id, request.currentUser().id, request.body)),
    );

    app.get(
      '/files/:id/lyrics/export',
      {
        schema: {
          ...common,
          summary: 'Download the lyrics as LRC, enhanced LRC (word times), SRT or plain text',
          params: songIdParams,
          querystring: lyricsExportQuery,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const file = await lyrics.export(request.params.id, request.query.format);
        reply
          .header('content-type', file.contentType)
          .header('content-disposition', attachmentDisposition(file.fileName))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff');
        return file.body;
      },
    );

    app.get(
      '/files/:id/lyrics/online',
      { schema: { ...common, summary: 'Lyrics candidates from the lyrics database (LRCLIB), synced or plain', params: songIdParams, response: { 200: lyricsCandidates, ...errors } } },
      async (request) => lookup.candidates(request.params.id, request.currentUser().id),
    );

    app.post(
      '/files/:id/lyrics/online',
      {
        schema: {
          ...common,
          summary: 'Apply one candidate of the lookup as the song’s lyrics',
          params: songIdParams,
          body: applyCandidateBody,
          response: { 200: lyricsTranscriptResponse, ...errors },
        },
      },
      async (request) => toTranscriptResponse(await lookup.apply(request.params.id, request.currentUser().id, request.body)),
    );
  };
}
