import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { listeningEndpoints, type PlayQueue } from '@encore/common/listening.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { SavedQueue } from './listening.port.js';
import type { ListeningService } from './listening.service.js';

const common = { security: [{ bearer: [] }] };

/** The web player's name in `changedBy` of a queue it saved. */
export const WEB_CLIENT = 'web';

function toPlayQueue(queue: SavedQueue): PlayQueue {
  return { songIds: queue.songIds, current: queue.currentSongId, positionSeconds: queue.positionMs / 1000 };
}

/** `/player/queue`: the user's play queue, the same one Subsonic clients save and read. */
export function listeningRoutes(service: ListeningService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, listeningEndpoints.getQueue, { ...common, responses: { 401: errorResponse } }, async (request) =>
      toPlayQueue(await service.queue(request.currentUser().id)),
    );

    route(app, listeningEndpoints.saveQueue, { ...common, responses: { 400: errorResponse, 401: errorResponse } }, async (request) => {
      const { songIds, current, positionSeconds } = request.body;
      return toPlayQueue(
        await service.saveQueue(request.currentUser().id, { songIds, currentSongId: current, positionMs: positionSeconds * 1000 }, WEB_CLIENT),
      );
    });
  };
}
