import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors/app-errors.js';

export const NUL_MESSAGE = 'The request contains a NUL character, which Encore does not accept.';

/**
 * The backstop behind the contract's per-field rules (common/src/input.contract.ts): after
 * validation, any NUL left in the path parameters, query or JSON body is refused with 400
 * before a handler can hand it to the database, whose text type cannot hold it. Contract
 * fields answer first with a message naming the field; this catches what has no contract
 * schema (the storage routes' raw keys) and whatever a future schema forgets.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) throw new ValidationError(NUL_MESSAGE);
  });
}

/** Walks strings, arrays and plain objects without recursion, so deep JSON cannot overflow the stack. */
function holdsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** JSON objects, and Fastify's params and query (whose prototype is a null-prototype object); not streams or buffers. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}
