import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@encore/common/auth.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { AppCredentialsService } from './app-credentials.service.js';
import { toAppCredential, toProfile, toPublicUser, toSignInResponse } from './auth.mapper.js';
import type { AuthService } from './auth.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse, 503: errorResponse };
const open = { responses: errors };
const signedIn = { security: [{ bearer: [] }], responses: errors };

export function authRoutes(auth: AuthService, appCredentials: AppCredentialsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, authEndpoints.signUp, open, async (request, reply) => {
      const user = await auth.signUp(request.body);
      return reply.status(201).send({ message: 'Account created. You can sign in now.', user: toPublicUser(user) });
    });

    route(app, authEndpoints.invitation, { responses: { ...errors, 404: errorResponse } }, async (request) => auth.signUpPolicy.lookUp(request.body.token));

    route(app, authEndpoints.signIn, open, async (request) => toSignInResponse(await auth.signIn(request.body, request.ip)));

    route(app, authEndpoints.googleLogin, open, async (request) => toSignInResponse(await auth.googleLogin(request.body.credential)));

    route(app, authEndpoints.profile, { ...signedIn, onRequest: app.requireUser, responses: { 401: errorResponse } }, async (request) =>
      toProfile(await auth.getProfile(request.currentUser().id)),
    );

    route(app, authEndpoints.updateProfile, { ...signedIn, onRequest: app.requireUser }, async (request) =>
      toProfile(await auth.updateProfile(request.currentUser().id, request.body)),
    );

    route(app, authEndpoints.changePassword, { ...signedIn, onRequest: app.requireUser }, async (request) => {
      const user = request.currentUser();
      return toSignInResponse(await auth.passwordChange.change({ userId: user.id, remember: user.remember }, request.body));
    });

    route(app, authEndpoints.forgotPassword, open, async (request) => auth.passwordReset.forgotPassword(request.body, request.ip));

    route(app, authEndpoints.resetPassword, open, async (request) => auth.passwordReset.resetPassword(request.body, request.ip));

    route(app, authEndpoints.verifyEmail, open, async (request) => auth.verification.verify(request.body.token));

    route(app, authEndpoints.resendVerification, { ...signedIn, onRequest: app.requireUser }, async (request) =>
      auth.verification.resend(request.currentUser().id, request.ip),
    );

    const owned = { ...signedIn, onRequest: app.requireUser, responses: { ...errors, 404: errorResponse } };

    route(app, authEndpoints.apiKeys, owned, async (request) => (await appCredentials.list('api-key', request.currentUser().id)).map(toAppCredential));

    route(app, authEndpoints.createApiKey, owned, async (request, reply) => {
      const created = await appCredentials.createApiKey(request.currentUser().id, request.body.name);
      return reply.status(201).send({ id: created.id, name: created.name, key: created.key });
    });

    route(app, authEndpoints.revokeApiKey, owned, async (request, reply) => {
      await appCredentials.revoke('api-key', request.currentUser().id, request.params.id);
      return reply.status(204).send(null);
    });

    route(app, authEndpoints.appPasswords, owned, async (request) =>
      (await appCredentials.list('app-password', request.currentUser().id)).map(toAppCredential),
    );

    route(app, authEndpoints.createAppPassword, owned, async (request, reply) => {
      const created = await appCredentials.createAppPassword(request.currentUser().id, request.body.name);
      return reply.status(201).send({ id: created.id, name: created.name, password: created.password });
    });

    route(app, authEndpoints.revokeAppPassword, owned, async (request, reply) => {
      await appCredentials.revoke('app-password', request.currentUser().id, request.params.id);
      return reply.status(204).send(null);
    });
  };
}
