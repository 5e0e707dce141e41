import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, RangeNotSatisfiableError } from '../../platform/errors/app-errors.js';
import { ClientCredentialsError } from '../auth/auth.port.js';
import { credentialsOf } from './subsonic-auth.js';
import { SENT, type SubsonicDeps, type SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { SubsonicError, subsonicErrorOf } from './subsonic-errors.js';
import { SubsonicParams } from './subsonic-params.js';
import { envelope, formatOf, render, type SubsonicFormat, type SubsonicObject } from './subsonic-response.js';

/** Form POST bodies are small: a call's parameters (a long playlist's ids at most). */
const FORM_BODY_LIMIT = 1024 * 1024;

/**
 * The Subsonic API under /rest: every endpoint at `/rest/<name>` and `/rest/<name>.view`, GET
 * and form POST, answered in the envelope and format the call asks for. Errors are answered
 * with HTTP 200 and Subsonic's codes, as clients expect. Hidden from the OpenAPI document (the
 * web API's).
 */
export function subsonicRoutes(deps: SubsonicDeps, endpoints: readonly SubsonicEndpoint[]): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(
      async (rest) => {
        rest.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
          done(null, new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));
        });
        rest.setErrorHandler((error, request, reply) => {
          if (error instanceof RangeNotSatisfiableError) {
            return reply.status(416).header('content-range', `bytes */${error.size}`).send();
          }
          // A Fastify refusal before the handler (a body too large, a content type it does not read).
          const refusal = fastifyRefusal(error);
          if (refusal !== undefined) return sendFailure(reply, request, deps, 0, refusal);
          const { code, message, internal } = subsonicErrorOf(error);
          if (internal) request.log.error({ err: error }, 'subsonic call failed');
          return sendFailure(reply, request, deps, code, message);
        });
        // Apps that run in a browser on another origin (web players) call /rest too: the calls
        // carry their own credentials (no cookies), so any origin may read the answers, covers and streams.
        rest.addHook('onRequest', async (_request, reply) => {
          reply.raw.setHeader('access-control-allow-origin', '*');
          reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
        });
        rest.options('/*', { schema: { hide: true } }, async (request, reply) => {
          const asked = request.headers['access-control-request-headers'];
          return reply
            .status(204)
            .header('access-control-allow-methods', 'GET, POST, HEAD, OPTIONS')
            .header('access-control-allow-headers', typeof asked === 'string' && asked !== '' ? asked : 'content-type, range')
            .header('access-control-max-age', '86400')
            .send();
        });
        // A method Encore does not answer (podcasts, jukebox, chat…) is Subsonic's error 0, never a 404 page.
        rest.setNotFoundHandler((request, reply) => sendFailure(reply, request, deps, 0, notImplemented(request.url)));
        for (const endpoint of endpoints) {
          for (const url of [`/${endpoint.name}`, `/${endpoint.name}.view`]) {
            rest.route({ method: ['GET', 'POST'], url, schema: { hide: true }, handler: (request, reply) => answer(deps, endpoint, request, reply) });
          }
        }
      },
      { prefix: '/rest' },
    );
  };
}

async function answer(deps: SubsonicDeps, endpoint: SubsonicEndpoint, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const params = SubsonicParams.of(request.url, request.body);
  const format = formatOrFailure(params);
  if (endpoint.open) return sendOk(reply, format, deps.serverVersion, endpoint.answer(params));
  const user = await deps.clientAuthentication.authenticate(credentialsOf(params), request.ip);
  const result = await endpoint.handle({ params, user, request, reply });
  if (result === SENT) return reply;
  return sendOk(reply, format, deps.serverVersion, result);
}

function formatOrFailure(params: SubsonicParams): SubsonicFormat {
  const format = formatOf(params.get('f'), params.get('callback'));
  if (format === 'bad-callback') throw new SubsonicError(10, 'Required parameter is missing or not a JavaScript name: callback');
  return format;
}

/** The format for an error: what the call asked for, JSON when its JSONP callback is unusable. */
function failureFormat(request: FastifyRequest): SubsonicFormat {
  const params = SubsonicParams.of(request.url, request.body);
  const format = formatOf(params.get('f'), params.get('callback'));
  return format === 'bad-callback' ? { kind: 'json' } : format;
}

function sendOk(reply: FastifyReply, format: SubsonicFormat, serverVersion: string, body: SubsonicObject): FastifyReply {
  const { contentType, body: text } = render(format, envelope('ok', serverVersion, body));
  return reply.status(200).header('content-type', contentType).header('cache-control', 'no-store').send(text);
}

/** Credential refusals a person fixes on the profile page (apiKeyAuthentication's helpUrl). */
const HELPED_CODES = new Set([41, 42, 44]);

function sendFailure(reply: FastifyReply, request: FastifyRequest, deps: SubsonicDeps, code: number, message: string): FastifyReply {
  const error = { code, message, helpUrl: HELPED_CODES.has(code) ? deps.helpUrl : undefined };
  const { contentType, body } = render(failureFormat(request), envelope('failed', deps.serverVersion, { error }));
  return reply.status(200).header('content-type', contentType).header('cache-control', 'no-store').send(body);
}

function fastifyRefusal(error: unknown): string | undefined {
  if (!(error instanceof Error) || error instanceof AppError || error instanceof SubsonicError || error instanceof ClientCredentialsError) return undefined;
  const candidate = error as { statusCode?: unknown };
  if (typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    return error.message;
  }
  return undefined;
}

/**
 * The error-0 answer to a method outside the API Encore serves (podcasts, jukebox, chat…), naming
 * it (`/rest/getPodcasts.view?…` → getPodcasts). Not a placeholder: the Subsonic protocol answers
 * such a call this way, never with a 404 page, and getOpenSubsonicExtensions lists what is served.
 */
function notImplemented(url: string): string {
  const name = (url.split('?')[0] ?? '').replace(/^\/rest\/?/, '').replace(/\.view$/, '');
  const shown = /^[A-Za-z0-9]{1,60}$/.test(name) ? name : '';
  return shown === '' ? 'Not implemented: unknown API method' : `Not implemented: ${shown} is not an API method Encore answers`;
}
