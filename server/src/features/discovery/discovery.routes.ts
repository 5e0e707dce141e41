import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discoveryEndpoints, type GeneratedPlaylist } from '@encore/common/discovery.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { toSong } from '../library/library.port.js';
import type { AnalysisService } from './analysis/analysis.service.js';
import type { DiscoveryService, GeneratedResult } from './discovery.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 422: errorResponse, 429: errorResponse };
const security = [{ bearer: [] }];

/**
 * AI playlists: generate from a prompt (SPEC 7), More like this, and the analysis progress.
 * `admitGeneration` counts each of a user's AI playlists against USER_AI_PER_MINUTE (429 past it).
 */
export function discoveryRoutes(
  discovery: DiscoveryService,
  analysis: AnalysisService,
  admitGeneration: (userId: number) => Promise<void> = async () => undefined,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, discoveryEndpoints.generate, { security, responses: errors }, async (request, reply) => {
      const viewerId = request.currentUser().id;
      await admitGeneration(viewerId);
      return reply.status(201).send(toGenerated(await discovery.generate(viewerId, request.body.prompt), viewerId));
    });

    route(app, discoveryEndpoints.moreLikeThis, { security, responses: errors }, async (request, reply) => {
      const viewerId = request.currentUser().id;
      await admitGeneration(viewerId);
      return reply.status(201).send(toGenerated(await discovery.moreLikeThis(viewerId, request.params.id), viewerId));
    });

    route(app, discoveryEndpoints.analysisProgress, { security, responses: { 401: errorResponse } }, async () => analysis.progress());
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
    songs: result.songs.map(({ record, reason, nearest }) => ({ ...toSong(record, viewerId), reason, ...(nearest ? { nearest } : {}) })),
  };
}
