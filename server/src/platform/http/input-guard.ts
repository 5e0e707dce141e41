import type { FastifyInstance } from 'fastify';
import { hasLoneSurrogates } from '@encore/common/input.rules';
import { ValidationError } from '../errors/app-errors.js';

export const NUL_MESSAGE = 'The request contains a NUL character, which Encore does not accept.';
export const SURROGATE_MESSAGE = 'The request contains a broken character (a lone UTF-16 surrogate), which Encore does not accept.';

/**
 * The backstop behind the contract's per-field rules (common/src/input.contract.ts): after
 * validation, any NUL or lone surrogate left in the path parameters, query or JSON body (in a
 * value or a key) is refused with 400 before a handler can hand it to the database, whose text
 * and jsonb types cannot hold either. Contract
 * fields answer first with a message naming the field; this catches what has no contract
 * schema (the storage routes' raw keys) and whatever a future schema forgets.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const problem = unstorableText(part);
      if (problem) throw new ValidationError(problem === 'nul' ? NUL_MESSAGE : SURROGATE_MESSAGE);
    }
  });
}

function problemOf(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul';
  return hasLoneSurrogates(text) ? 'surrogate' : undefined;
}

/** Walks strings, arrays and plain objects without recursion, so deep JSON cannot overflow the stack. */
function unstorableText(root: unknown): 'nul' | 'surrogate' | undefined {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      const problem = problemOf(value);
      if (problem) return problem;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        const problem = problemOf(key);
        if (problem) return problem;
        pending.push(child);
      }
    }
  }
  return undefined;
}

/** JSON objects, and Fastify's params and query (whose prototype is a null-prototype object); not streams or buffers. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}
