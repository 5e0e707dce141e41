import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { lyricsEndpoints } from '@encore/common/lyrics.contract';
import { route } from '../../../platform/http/endpoint-route.js';
import { toTranscriptResponse } from '../lyrics.mapper.js';
import type { SongUrlVerifier } from './song-url.js';
import type { TranscriptionService } from './transcription.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse, 503: errorResponse };
const common = { security: [{ bearer: [] }], responses: errors };

/** Transcription: SPEC 7's waiting calls, and the task a web page follows with real progress. */
export function transcriptionRoutes(transcription: TranscriptionService, urls: SongUrlVerifier): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, lyricsEndpoints.transcribe, common, async (request) => {
      const closed = new AbortController();
      request.raw.once('close', () => closed.abort());
      const language = request.body.language && request.body.language !== 'auto' ? request.body.language : null;
      return toTranscriptResponse(await transcription.transcribeAndWait(request.params.id, request.currentUser().id, language, closed.signal));
    });

    route(app, lyricsEndpoints.startTranscription, common, async (request, reply) => {
      const language = request.body.language && request.body.language !== 'auto' ? request.body.language : null;
      const taskId = await transcription.start(request.params.id, request.currentUser().id, language);
      return reply.status(202).send({ taskId });
    });

    route(app, lyricsEndpoints.transcriptionStatus, common, async (request) => transcription.status(request.params.id));

    route(app, lyricsEndpoints.transcribeSong, common, async (request) => {
      const songId = await urls.songIdOf(request.body.url);
      const closed = new AbortController();
      request.raw.once('close', () => closed.abort());
      return { words: await transcription.wordsOf(songId, request.currentUser().id, closed.signal) };
    });
  };
}
