import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { radioEndpoints } from '@encore/common/radio.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { RadioNowPlaying } from './radio-now-playing.service.js';
import type { RadioService } from './radio.service.js';

const common = { security: [{ bearer: [] }] };
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** The web app's radio: everyone signed in lists stations and their titles; admins change them. */
export function radioRoutes(service: RadioService, nowPlaying: RadioNowPlaying): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    route(app, radioEndpoints.list, { ...common, responses: { 401: errorResponse } }, async (request) => {
      const [stations, canManage] = await Promise.all([service.list(), service.canManage(request.currentUser().id)]);
      return { stations, canManage };
    });

    route(app, radioEndpoints.create, { ...common, responses: errors }, async (request, reply) =>
      reply.status(201).send(await service.create(request.currentUser().id, request.body)),
    );

    route(app, radioEndpoints.update, { ...common, responses: errors }, async (request) =>
      service.update(request.currentUser().id, request.params.id, request.body),
    );

    route(app, radioEndpoints.delete, { ...common, responses: errors }, async (request, reply) => {
      await service.delete(request.currentUser().id, request.params.id);
      return reply.status(204).send(null);
    });

    route(app, radioEndpoints.nowPlaying, { ...common, responses: errors }, async (request, reply) => {
      const title = await nowPlaying.title(request.params.id);
      return reply.header('cache-control', 'private, no-store').send({ title });
    });
  };
}
