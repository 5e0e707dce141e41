import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@encore/common/auth.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import { toProfile, toPublicUser, toSignInResponse } from './auth.mapper.js';
import type { AuthService } from './auth.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 409: errorResponse, 429: errorResponse, 503: errorResponse };
const open = { responses: errors };
const signedIn = { security: [{ bearer: [] }], responses: errors };

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, authEndpoints.signUp, open, async (request, reply) => {
      const user = await auth.signUp(request.body);
      return reply.status(201).send({ message: 'Account created. You can sign in now.', user: toPublicUser(user) });
    });

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
  };
}
