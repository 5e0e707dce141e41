import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBody,
  forgotPasswordBody,
  googleLoginBody,
  profileResponse,
  resetPasswordBody,
  signInBody,
  signInResponse,
  signUpBody,
  signUpResponse,
  successResponse,
  updateProfileBody,
  verifyEmailBody,
} from '@encore/common/auth.contract';
import { errorResponse } from '@encore/common/http.contract';
import { toProfile, toPublicUser, toSignInResponse } from './auth.mapper.js';
import type { AuthService } from './auth.service.js';

const errors = { 400: errorResponse, 401: errorResponse, 409: errorResponse, 429: errorResponse, 503: errorResponse };

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/signup',
      { schema: { tags: ['auth'], summary: 'Create an account (does not sign in)', body: signUpBody, response: { 201: signUpResponse, ...errors } } },
      async (request, reply) => {
        const user = await auth.signUp(request.body);
        return reply.status(201).send({ message: 'Account created. You can sign in now.', user: toPublicUser(user) });
      },
    );

    app.post(
      '/auth/signin',
      { schema: { tags: ['auth'], summary: 'Sign in with user name and password', body: signInBody, response: { 200: signInResponse, ...errors } } },
      async (request) => toSignInResponse(await auth.signIn(request.body, request.ip)),
    );

    app.post(
      '/auth/google-login',
      { schema: { tags: ['auth'], summary: 'Sign in with a Google ID token', body: googleLoginBody, response: { 200: signInResponse, ...errors } } },
      async (request) => toSignInResponse(await auth.googleLogin(request.body.credential)),
    );

    app.get(
      '/auth/profile',
      { onRequest: app.requireUser, schema: { tags: ['auth'], summary: 'The signed-in user', security: [{ bearer: [] }], response: { 200: profileResponse, 401: errorResponse } } },
      async (request) => toProfile(await auth.getProfile(request.currentUser().id)),
    );

    app.put(
      '/auth/profile',
      {
        onRequest: app.requireUser,
        schema: { tags: ['auth'], summary: 'Change user name or e-mail', security: [{ bearer: [] }], body: updateProfileBody, response: { 200: profileResponse, ...errors } },
      },
      async (request) => toProfile(await auth.updateProfile(request.currentUser().id, request.body)),
    );

    app.put(
      '/auth/password',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['auth'],
          summary: 'Change the password with the current one; ends other sessions and answers with a new token',
          security: [{ bearer: [] }],
          body: changePasswordBody,
          response: { 200: signInResponse, ...errors },
        },
      },
      async (request) => {
        const user = request.currentUser();
        return toSignInResponse(await auth.passwordChange.change({ userId: user.id, remember: user.remember }, request.body));
      },
    );

    app.post(
      '/email/forgot-password',
      {
        schema: {
          tags: ['auth'],
          summary: 'E-mail a password reset link (same answer whether or not the account exists)',
          body: forgotPasswordBody,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => auth.passwordReset.forgotPassword(request.body, request.ip),
    );

    app.post(
      '/email/reset-password',
      {
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with a reset token (also verifies the e-mail address)',
          body: resetPasswordBody,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => auth.passwordReset.resetPassword(request.body, request.ip),
    );

    app.post(
      '/auth/verify-email',
      {
        schema: {
          tags: ['auth'],
          summary: 'Verify the e-mail address with the token of a verification link',
          body: verifyEmailBody,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => auth.verification.verify(request.body.token),
    );

    app.post(
      '/auth/resend-verification',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['auth'],
          summary: 'Mail a new verification link to the signed-in user',
          security: [{ bearer: [] }],
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => auth.verification.resend(request.currentUser().id, request.ip),
    );
  };
}
