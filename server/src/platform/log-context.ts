import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The id of the request or job a log line was written for, whichever logger wrote it: a
 * module's logger, the platform's, Fastify's. Set once where the work starts (a request's
 * first hook, the job runner), read by pino's mixin on every line (`logMixin`), so one id
 * follows a request or a job through every module it touches.
 */
export interface LogContext {
  reqId?: string;
  jobId?: string;
  queue?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/**
 * Runs `work` with these ids, and only these, on every log line it writes (and what it starts):
 * a job woken by a request's send is not that request's.
 */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return context.run({ ...fields }, work);
}

/** From here on in this request's (or job's) async flow, log lines carry these ids. */
export function enterLogContext(fields: LogContext): void {
  context.enterWith({ ...fields });
}

/**
 * pino's `mixin`: the current ids, minus those the logger already binds (Fastify's request
 * logger binds reqId itself; a key written twice would appear twice in the JSON).
 */
export function logMixin(_merge: object, _level: number, logger?: { bindings(): Record<string, unknown> }): object {
  const current = context.getStore();
  if (!current) return {};
  const bound = logger?.bindings() ?? {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(current)) if (value !== undefined && !(key in bound)) fields[key] = value;
  return fields;
}

/** A client's X-Request-Id when it is a plain token (a proxy's id carries through), else a fresh UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:@/+=-]{1,128}$/.test(given) ? given : randomUUID();
}
