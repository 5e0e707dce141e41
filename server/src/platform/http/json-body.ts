import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

export const BODY_MISSING_MESSAGE = 'This request needs a JSON body.';

/**
 * SPEC 7 sends some calls with no body (like, transcribe, the deletes), and clients spell
 * "no body" three ways: no content type, `content-type: application/json` with nothing after
 * it, or `content-length: 0`. All three mean the same here: the body is absent. A route whose
 * body schema is optional then gets undefined; a route that needs a body says so.
 */
export function installJsonBody(app: FastifyInstance): void {
  // The default parser's own prototype-poisoning rules, with an empty body read as absent.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/**
 * The zod validator, except that an absent body (which Fastify hands validators as null) is
 * undefined, so `.optional()` body schemas accept a call sent without one; a body the route
 * requires is refused with a message that says it is missing rather than "received null".
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  return (data: unknown) => {
    if (data !== null && data !== undefined) return validate(data);
    const result = validate(undefined) as { error?: Error; value?: unknown };
    if (!result.error) return result;
    const error = Object.assign(new Error(BODY_MISSING_MESSAGE), { statusCode: 400 });
    return { error };
  };
};
