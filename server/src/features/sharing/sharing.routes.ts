import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { SHARE_MESSAGES, sharingEndpoints } from '@encore/common/library.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { toSharedSong } from './sharing.mapper.js';
import type { SharingService } from './sharing.service.js';

/** Sending a song by e-mail (signed in) and the public share page's data (no account). */
export function sharingRoutes(sharing: SharingService): FastifyPluginAsyncZod {
  return async (app) => {
    route(
      app,
      sharingEndpoints.sendSongLink,
      { onRequest: app.requireUser, security: [{ bearer: [] }], responses: { 400: errorResponse, 401: errorResponse, 429: errorResponse } },
      async (request) => {
        const user = request.currentUser();
        await sharing.sendSongLink({ id: user.id, userName: user.userName }, request.body);
        return { success: true as const, message: SHARE_MESSAGES.sent };
      },
    );

    route(app, sharingEndpoints.sharedSong, { responses: { 404: errorResponse } }, async (request, reply) => {
      // The answer holds signed URLs; nothing between here and the browser should keep it.
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return toSharedSong(await sharing.sharedSong(request.params.token));
    });
  };
}
