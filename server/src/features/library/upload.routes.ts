import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { presignedUrlQuery, presignedUrlResponse, song, uploadCompleteBody } from '@encore/common/library.contract';
import type { IngestService } from './ingest/ingest.service.js';
import { toSong } from './library.mapper.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 413: errorResponse, 415: errorResponse, 422: errorResponse };
const common = { tags: ['upload'], security: [{ bearer: [] }] };

/** `/upload…`: the presigned URL and upload-complete steps of SPEC 7's three-step upload. */
export function uploadRoutes(ingest: IngestService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/upload/presigned-url',
      {
        schema: {
          ...common,
          summary: 'A URL to PUT one file to (send contentType to bind the Content-Type the PUT must carry)',
          querystring: presignedUrlQuery,
          response: { 200: presignedUrlResponse, ...errors },
        },
      },
      async (request) => ingest.presign(request.currentUser().id, request.query.fileName, request.query.contentType),
    );

    app.post(
      '/upload/upload-complete',
      {
        schema: {
          ...common,
          summary: 'Check the uploaded bytes, read tags and cover art, add the song (201; 200 when already added)',
          body: uploadCompleteBody,
          response: { 200: song, 201: song, ...errors },
        },
      },
      async (request, reply) => {
        const user = request.currentUser();
        const { song: added, created } = await ingest.complete(user, request.body);
        return reply.status(created ? 201 : 200).send(toSong(added, user.id));
      },
    );
  };
}
