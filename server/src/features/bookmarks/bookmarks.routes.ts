import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookmarksEndpoints, type Bookmark } from '@encore/common/bookmarks.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { BookmarkRecord } from './bookmarks.port.js';
import type { BookmarksService } from './bookmarks.service.js';

const common = { security: [{ bearer: [] }] };
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

const toBookmark = (record: BookmarkRecord): Bookmark => ({
  songId: record.songId,
  positionMs: record.positionMs,
  comment: record.comment,
  changedAt: record.changedAt.toISOString(),
});

/** The web player's bookmarks: each user's own, one per song. */
export function bookmarksRoutes(service: BookmarksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, bookmarksEndpoints.get, { ...common, responses: errors }, async (request) => {
      const found = await service.get(request.currentUser().id, request.params.songId);
      return { bookmark: found ? toBookmark(found) : null };
    });

    route(app, bookmarksEndpoints.save, { ...common, responses: errors }, async (request) =>
      toBookmark(await service.save(request.currentUser().id, request.params.songId, request.body.positionMs, null)),
    );

    route(app, bookmarksEndpoints.delete, { ...common, responses: errors }, async (request, reply) => {
      await service.remove(request.currentUser().id, request.params.songId);
      return reply.status(204).send(null);
    });
  };
}
