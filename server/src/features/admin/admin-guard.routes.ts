import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, NotFoundError } from '../../platform/errors/app-errors.js';

/**
 * onRequest hook of the admin calls: anyone but a signed-in admin gets the very 404 an unknown
 * address gets (`{"message":"Not found."}`), so the admin API does not show it exists. It runs
 * before the body and parameters are read: what a non-admin sends is never looked at.
 */
export function adminOnly(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      await app.requireUser(request, reply);
    } catch (error) {
      // No session, an ended one or a bad token: as if the route did not exist. Faults are still faults.
      if (error instanceof AppError && error.isRefusal) throw new NotFoundError();
      throw error;
    }
    if (request.currentUser().role !== 'admin') throw new NotFoundError();
  };
}
