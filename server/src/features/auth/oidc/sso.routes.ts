import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { ssoEndpoints, ssoMessagesEn } from '@encore/common/sso.contract';
import { UnauthorizedError } from '../../../platform/errors/app-errors.js';
import { route } from '../../../platform/http/endpoint-route.js';
import { toSignInResponse } from '../auth.mapper.js';
import type { SsoService } from './sso.service.js';
import type { TrustedProxies } from './trusted-proxy.js';

const responses = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 503: errorResponse };

/** OpenID Connect sign-in (start, callback) and the trusted proxy's header sign-in. */
export function ssoRoutes(sso: SsoService, proxies: TrustedProxies | undefined): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, ssoEndpoints.oidcStart, { responses }, async (request, reply) => {
      const { url, cookie } = await sso.beginOidc(request.body.next, request.body.rememberMe ?? true);
      return reply.header('set-cookie', cookie).header('cache-control', 'no-store').send({ url });
    });

    route(app, ssoEndpoints.oidcCallback, { responses }, async (request, reply) => {
      // The attempt is spent whatever the outcome: a second try starts again.
      reply.header('set-cookie', sso.clearedStateCookie).header('cache-control', 'no-store');
      const signedIn = await sso.completeOidc(request.body.query, request.headers.cookie);
      return { ...toSignInResponse(signedIn), next: signedIn.next, rememberMe: signedIn.remember };
    });

    route(app, ssoEndpoints.proxySignIn, { responses }, async (request, reply) => {
      // The socket's peer, not request.ip: TRUST_PROXY's X-Forwarded-For must not make a client a proxy.
      const named = proxies?.userOf(request.socket.remoteAddress, request.raw.rawHeaders);
      if (!named) throw new UnauthorizedError(ssoMessagesEn.proxyUntrusted);
      if (named === 'repeated') throw new UnauthorizedError(ssoMessagesEn.proxyRepeatedHeader);
      reply.header('cache-control', 'no-store');
      return toSignInResponse(await sso.proxySignIn(named.name, named.email));
    });
  };
}
