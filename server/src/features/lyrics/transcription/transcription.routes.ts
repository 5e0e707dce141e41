import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { songIdParams } from '@encore/common/library.contract';
import { lyricsTranscriptResponse, transcribeBody, transcribeSongBody, transcribeSongResponse, transcriptionStarted, transcriptionStatus } from '@encore/common/lyrics.contract';
import { toTranscriptResponse } from '../lyrics.mapper.js';
import type { SongUrlVerifier } from './song-url.js';
import type { TranscriptionService } from './transcription.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 503: errorResponse };
const common = { tags: ['lyrics'], security: [{ bearer: [] }] };

/** Transcription: SPEC 7's waiting calls, and the task a web page follows with real progress. */
export function transcriptionRoutes(transcription: TranscriptionService, urls: SongUrlVerifier): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.post(
      '/files/:id/transcribe',
      {
        schema: {
          ...common,
          summary: 'Transcribe the song and answer the transcript when done (SPEC 7); joins a transcription already running',
          params: songIdParams,
          body: transcribeBody,
          response: { 200: lyricsTranscriptResponse, ...errors },
        },
      },
      async (request) => {
        const closed = new AbortController();
        request.raw.once('close', () => closed.abort());
        const language = request.body.language && request.body.language !== 'auto' ? request.body.language : null;
        return toTranscriptResponse(await transcription.transcribeAndWait(request.params.id, request.currentUser().id, language, closed.signal));
      },
    );

    app.post(
      '/files/:id/lyrics/transcription',
      {
        schema: {
          ...common,
          summary: 'Start (or join) the song’s transcription; answers its task id at once (follow it at /api/tasks/{id})',
          params: songIdParams,
          body: transcribeBody,
          response: { 202: transcriptionStarted, ...errors },
        },
      },
      async (request, reply) => {
        const language = request.body.language && request.body.language !== 'auto' ? request.body.language : null;
        const taskId = await transcription.start(request.params.id, request.currentUser().id, language);
        return reply.status(202).send({ taskId });
      },
    );

    app.get(
      '/files/:id/lyrics/transcription',
      {
        schema: {
          ...common,
          summary: 'The transcription running for this song, whoever started it (null when none)',
          params: songIdParams,
          response: { 200: transcriptionStatus.nullable(), ...errors },
        },
      },
      async (request) => transcription.status(request.params.id),
    );

    app.post(
      '/transcribe_song',
      {
        schema: {
          ...common,
          summary: 'SPEC 7’s transcription service: the words of a song, by a URL Encore issued for it',
          body: transcribeSongBody,
          response: { 200: transcribeSongResponse, ...errors },
        },
      },
      async (request) => {
        const songId = await urls.songIdOf(request.body.url);
        const closed = new AbortController();
        request.raw.once('close', () => closed.abort());
        return { words: await transcription.wordsOf(songId, request.currentUser().id, closed.signal) };
      },
    );
  };
}
