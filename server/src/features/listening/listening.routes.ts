import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '@encore/common/http.contract';
import { listeningEndpoints, type ListenBrainzStatus, type PlayQueue } from '@encore/common/listening.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { receivedAt } from '../../platform/http/received-at.js';
import { toSongListEntry } from '../library/library.port.js';
import type { ListenBrainzLinkStatus, ListenBrainzService } from './listenbrainz/listenbrainz.service.js';
import type { SavedQueue } from './listening.port.js';
import { playThresholdSeconds, type ListeningService } from './listening.service.js';

const common = { security: [{ bearer: [] }] };

/** The web player's name in `changedBy` of a queue it saved. */
export const WEB_CLIENT = 'web';

function toPlayQueue(queue: SavedQueue): PlayQueue {
  return { songIds: queue.songIds, current: queue.currentSongId, positionSeconds: queue.positionMs / 1000 };
}

function toListenBrainzStatus(status: ListenBrainzLinkStatus): ListenBrainzStatus {
  return {
    linked: status.linked,
    userName: status.userName,
    lastSubmittedAt: status.lastSubmittedAt?.toISOString() ?? null,
    lastError: status.lastError,
    lastErrorAt: status.lastErrorAt?.toISOString() ?? null,
  };
}

/**
 * `/player/queue`: the user's play queue, the same one Subsonic clients save and read.
 * `/files/:id/plays` and `/player/history`: plays the web player counts, and the user's history.
 * `/profile/listenbrainz`: the link that sends counted plays to ListenBrainz.
 */
export function listeningRoutes(service: ListeningService, listenBrainz: ListenBrainzService): FastifyPluginAsyncZod {
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

    route(
      app,
      listeningEndpoints.countPlay,
      { ...common, responses: { 400: errorResponse, 401: errorResponse, 404: errorResponse } },
      async (request, reply) => {
        // The play is when the post arrived, not when its turn for the database came: posts of
        // one play arriving together stay within the song's threshold however long they wait.
        const at = receivedAt(reply);
        const counted = await service.countPlay(request.currentUser().id, request.params.id, {
          at,
          // The player calls at the threshold: the listening started that long ago.
          startedAt: (song) => new Date(at.getTime() - playThresholdSeconds(song.durationSeconds) * 1000),
          client: WEB_CLIENT,
        });
        return { counted: counted.counted, playCount: counted.playCount, lastPlayedAt: counted.lastPlayedAt.toISOString() };
      },
    );

    route(app, listeningEndpoints.history, { ...common, responses: { 400: errorResponse, 401: errorResponse } }, async (request) => {
      const viewerId = request.currentUser().id;
      const { kind, limit } = request.query;
      const played = await service.history(viewerId, kind, limit);
      return {
        kind,
        songs: played.map((entry) => ({
          ...toSongListEntry(entry.song, viewerId),
          playCount: entry.playCount,
          lastPlayedAt: entry.lastPlayedAt.toISOString(),
        })),
      };
    });

    const linkErrors = { 400: errorResponse, 401: errorResponse, 503: errorResponse };
    route(app, listeningEndpoints.listenBrainz, { ...common, responses: { 401: errorResponse } }, async (request) =>
      toListenBrainzStatus(await listenBrainz.status(request.currentUser().id)),
    );
    route(app, listeningEndpoints.linkListenBrainz, { ...common, responses: linkErrors }, async (request) =>
      toListenBrainzStatus(await listenBrainz.link(request.currentUser().id, request.body.token)),
    );
    route(app, listeningEndpoints.unlinkListenBrainz, { ...common, responses: { 204: z.null(), 401: errorResponse } }, async (request, reply) => {
      await listenBrainz.unlink(request.currentUser().id);
      return reply.status(204).send(null);
    });
  };
}
