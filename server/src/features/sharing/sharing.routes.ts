import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { SHARE_MESSAGES, sendSongLinkBody, sendSongLinkResponse, sharedSong, shareTokenParams } from '@encore/common/library.contract';
import { toSharedSong } from './sharing.mapper.js';
import type { SharingService } from './sharing.service.js';

/** Sending a song by e-mail (signed in) and the public share page's data (no account). */
export function sharingRoutes(sharing: SharingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/email/send-song-link',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['sharing'],
          summary: 'E-mail a link to a public page that plays the song (expires after 30 days)',
          security: [{ bearer: [] }],
          body: sendSongLinkBody,
          response: { 200: sendSongLinkResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const user = request.currentUser();
        await sharing.sendSongLink({ id: user.id, userName: user.userName }, request.body);
        return { success: true as const, message: SHARE_MESSAGES.sent };
      },
    );

    app.get(
      '/share/:token',
      {
        schema: {
          tags: ['sharing'],
          summary: 'A shared song for the public share page, with short-lived stream and cover URLs',
          params: shareTokenParams,
          response: { 200: sharedSong, 404: errorResponse },
        },
      },
      async (request, reply) => {
        // The answer holds signed URLs; nothing between here and the browser should keep it.
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return toSharedSong(await sharing.sharedSong(request.params.token));
      },
    );
  };
}
