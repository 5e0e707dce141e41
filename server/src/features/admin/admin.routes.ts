import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminEndpoints } from '@encore/common/admin.contract';
import { authEndpoints } from '@encore/common/auth.contract';
import { errorResponse } from '@encore/common/http.contract';
import { route } from '../../platform/http/endpoint-route.js';
import type { AccountAdministration } from '../auth/auth.port.js';
import { adminOnly } from './admin-guard.routes.js';
import { toAdminUser, toInvitation } from './admin.mapper.js';
import type { AdminService } from './admin.service.js';
import type { AccountRemoval } from './account-removal.service.js';

const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse, 429: errorResponse, 503: errorResponse };

/** /api/admin/*: each call is 404 to anyone but a signed-in admin (admin-guard.ts). */
export function adminRoutes(admin: AdminService): FastifyPluginAsyncZod {
  return async (app) => {
    const options = { onRequest: adminOnly(app), security: [{ bearer: [] }], responses: errors };

    route(app, adminEndpoints.users, options, async (request) => {
      const viewer = request.currentUser().id;
      return { users: (await admin.users()).map((user) => toAdminUser(user, viewer)) };
    });

    route(app, adminEndpoints.setRole, options, async (request) =>
      toAdminUser(await admin.setRole(request.params.id, request.body.role), request.currentUser().id),
    );

    route(app, adminEndpoints.setDisabled, options, async (request) => {
      const viewer = request.currentUser().id;
      return toAdminUser(await admin.setDisabled(viewer, request.params.id, request.body.disabled), viewer);
    });

    route(app, adminEndpoints.sendPasswordReset, options, async (request) => ({ message: await admin.sendPasswordReset(request.params.id) }));

    route(app, adminEndpoints.deleteUser, options, async (request) => admin.deleteUser(request.params.id, request.query.deleteUploads));

    route(app, adminEndpoints.invitations, options, async () => ({ invitations: (await admin.invitations()).map(toInvitation) }));

    route(app, adminEndpoints.createInvitation, options, async (request, reply) => {
      const { id, userName } = request.currentUser();
      return reply.status(201).send(toInvitation(await admin.invite(request.body.email, { id, userName })));
    });

    route(app, adminEndpoints.revokeInvitation, options, async (request, reply) => {
      await admin.revokeInvitation(request.params.id);
      return reply.status(204).send(null);
    });

    route(app, adminEndpoints.settings, options, async () => ({ signUp: await admin.signUpSetting() }));

    route(app, adminEndpoints.updateSettings, options, async (request) => ({ signUp: await admin.setSignUpMode(request.body.signUp) }));

    route(app, adminEndpoints.musicFolders, options, async () => admin.musicFolders());

    route(app, adminEndpoints.scanNow, options, async (request) => admin.scanNow(request.currentUser().id));

    route(app, adminEndpoints.queues, options, async () => {
      const { queues, jobs } = await admin.queues();
      return {
        queues,
        jobs: jobs.map((job) => ({ ...job, createdAt: job.createdAt.toISOString(), endedAt: job.endedAt?.toISOString() ?? null })),
      };
    });

    route(app, adminEndpoints.retryJob, options, async (request, reply) => {
      await admin.retryJob(request.params.queue, request.params.id);
      return reply.status(204).send(null);
    });

    route(app, adminEndpoints.cancelJob, options, async (request, reply) => {
      await admin.cancelJob(request.params.queue, request.params.id);
      return reply.status(204).send(null);
    });

    route(app, adminEndpoints.storage, options, async () => admin.storage());
  };
}

/** DELETE /api/auth/account: a user deletes their own account, the password asked again (the last admin cannot). */
export function ownAccountRoutes(accounts: AccountAdministration, removal: AccountRemoval): FastifyPluginAsyncZod {
  return async (app) => {
    const options = { onRequest: app.requireUser, security: [{ bearer: [] }], responses: { ...errors, 401: errorResponse } };
    route(app, authEndpoints.deleteAccount, options, async (request, reply) => {
      const userId = request.currentUser().id;
      await accounts.confirmIdentity(userId, request.body, request.ip);
      await removal.remove(userId, { deleteUploads: false });
      return reply.status(204).send(null);
    });
  };
}
