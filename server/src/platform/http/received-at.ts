import type { FastifyReply } from 'fastify';

/**
 * When Fastify received the request, before its hooks (the session check among them) and any
 * wait for the database: the time of what the request reports (a play), however long it queued.
 */
export function receivedAt(reply: FastifyReply): Date {
  return new Date(Date.now() - reply.elapsedTime);
}
