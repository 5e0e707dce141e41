import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@encore/common/http.contract';
import { tasksEndpoints, type Task } from '@encore/common/tasks.contract';
import { NotFoundError } from '../errors/app-errors.js';
import { route } from '../http/endpoint-route.js';
import type { TaskRecord } from './task.store.js';
import type { Tasks } from './tasks.js';

/** A session as an events ticket carries it (see auth's EventSessions). */
export interface StreamSession {
  userId: number;
  tokenVersion: number;
  expiresAt: Date;
}

/** What the events stream needs of sign-in: tickets that carry the session, and its end. */
export interface StreamSessions {
  issueTicket(session: StreamSession): Promise<string>;
  /** The live session of a ticket; throws a 401 kind of error otherwise. */
  open(ticket: string): Promise<StreamSession>;
  /** Calls `onEnd` once when the session ends (password change, reset, expiry); returns the unsubscribe. */
  watch(session: StreamSession, onEnd: () => void): Promise<() => void>;
}

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };
const security = [{ bearer: [] }];

export function toTask(record: TaskRecord): Task {
  return {
    id: record.id,
    kind: record.kind,
    subjectType: record.subjectType,
    subjectId: record.subjectId,
    state: record.state,
    progress: record.progress,
    phase: record.phase,
    result: record.result ?? null,
    error: record.error,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    startedAt: record.startedAt?.toISOString() ?? null,
    finishedAt: record.finishedAt?.toISOString() ?? null,
  };
}

/**
 * A task's owner reads and cancels it; `GET /tasks/events` streams the changes of the caller's
 * tasks (Server-Sent Events) from any process, with a comment every `heartbeatMs` so neither
 * the idle timeout nor a proxy closes a quiet stream. The stream ends with the session whose
 * ticket opened it.
 */
export function tasksRoutes(tasks: Tasks, options: { heartbeatMs: number; sessions: StreamSessions }): FastifyPluginAsyncZod {
  const { sessions } = options;
  return async (app) => {
    const streams = new Set<ServerResponse>();
    app.addHook('preClose', async () => {
      for (const stream of streams) stream.end();
    });

    route(app, tasksEndpoints.get, { onRequest: app.requireUser, security, responses: errors }, async (request) => {
      const found = await tasks.get(request.params.id, request.currentUser().id);
      if (!found) throw new NotFoundError('Task not found.');
      return toTask(found);
    });

    route(app, tasksEndpoints.cancel, { onRequest: app.requireUser, security, responses: errors }, async (request) => {
      const found = await tasks.cancel(request.params.id, request.currentUser().id);
      if (!found) throw new NotFoundError('Task not found.');
      return toTask(found);
    });

    route(app, tasksEndpoints.eventsTicket, { onRequest: app.requireUser, security, responses: { 401: errorResponse } }, async (request) => {
      const user = request.currentUser();
      return { ticket: await sessions.issueTicket({ userId: user.id, tokenVersion: user.tokenVersion, expiresAt: user.expiresAt }) };
    });

    route(app, tasksEndpoints.events, { responses: { 400: errorResponse, 401: errorResponse } }, async (request, reply) => {
      const session = await sessions.open(request.query.ticket);
      const ownerId = session.userId;
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      stream.write('retry: 3000\n\n');
      streams.add(stream);
      let unsubscribe: () => void;
      let unwatch: () => void = () => undefined;
      try {
        unsubscribe = await tasks.subscribe(ownerId, (changed) => {
          stream.write(`event: task\ndata: ${JSON.stringify(toTask(changed))}\n\n`);
        });
        try {
          // The client's reconnect needs a new ticket, which only a live session gets.
          unwatch = await sessions.watch(session, () => {
            stream.write('event: session-ended\ndata: {}\n\n');
            stream.end();
          });
        } catch (error) {
          unsubscribe();
          throw error;
        }
      } catch (error) {
        // The stream is already open: end it, and the browser's EventSource retries.
        request.log.error({ err: error }, 'could not follow task changes');
        streams.delete(stream);
        stream.end();
        return;
      }
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), options.heartbeatMs);
      const cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        unwatch();
        streams.delete(stream);
      };
      request.raw.once('close', cleanup);
      stream.once('close', cleanup);
    });
  };
}
