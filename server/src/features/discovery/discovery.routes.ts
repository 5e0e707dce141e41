import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analysisProgress } from '@encore/common/analysis.contract';
import { generatePlaylistBody, generatedPlaylist, moreLikeThisParams, type GeneratedPlaylist } from '@encore/common/discovery.contract';
import { errorResponse } from '@encore/common/http.contract';
import { toSong } from '../library/library.port.js';
import type { AnalysisService } from './analysis/analysis.service.js';
import type { DiscoveryService, GeneratedResult } from './discovery.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 422: errorResponse };

/** AI playlists: generate from a prompt (SPEC 7), More like this, and the analysis progress. */
export function discoveryRoutes(discovery: DiscoveryService, analysis: AnalysisService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.post(
      '/playlists/generate-playlist-by-prompt',
      {
        schema: {
          tags: ['playlists'],
          security: [{ bearer: [] }],
          summary: "Turns a prompt into a playlist of the caller's library, saved among their playlists (marked AI generated)",
          body: generatePlaylistBody,
          response: { 201: generatedPlaylist, ...errors },
        },
      },
      async (request, reply) => {
        const viewerId = request.currentUser().id;
        return reply.status(201).send(toGenerated(await discovery.generate(viewerId, request.body.prompt), viewerId));
      },
    );

    app.post(
      '/songs/:id/more-like-this',
      {
        schema: {
          tags: ['playlists'],
          security: [{ bearer: [] }],
          summary: 'A playlist of the songs that sound nearest to this one, saved among the caller’s playlists',
          params: moreLikeThisParams,
          response: { 201: generatedPlaylist, ...errors },
        },
      },
      async (request, reply) => {
        const viewerId = request.currentUser().id;
        return reply.status(201).send(toGenerated(await discovery.moreLikeThis(viewerId, request.params.id), viewerId));
      },
    );

    app.get(
      '/ai/analysis-progress',
      { schema: { tags: ['playlists'], security: [{ bearer: [] }], summary: 'How much of the library is analysed ("Analysed 412 of 530 songs")', response: { 200: analysisProgress, 401: errorResponse } } },
      async () => analysis.progress(),
    );
  };
}

function toGenerated(result: GeneratedResult, viewerId: number): GeneratedPlaylist {
  return {
    id: result.id,
    name: result.name,
    description: result.description,
    prompt: result.prompt,
    aiGenerated: true,
    interpreter: result.interpreter,
    note: result.note,
    songs: result.songs.map(({ record, reason }) => ({ ...toSong(record, viewerId), reason })),
  };
}
