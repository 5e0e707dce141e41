import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors/app-errors.js';
import { httpErrorOf } from './error-status.js';

const INTERNAL = 'Something went wrong on our side. Please try again.';

/**
 * The one place errors become responses: typed errors get their kind's status and their message; request
 * validation gives 400 with the first rule's message; anything unexpected is logged and
 * answered with a 500 that shows nothing of the internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const answer = httpErrorOf(error);
      if (answer.status >= 500) request.log.error({ err: error }, error.message);
      return reply.status(answer.status).headers(answer.headers).send(answer.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.message && !first.message.startsWith('Invalid input') ? first.message : describe(first);
      return reply.status(400).send({ message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ message: INTERNAL });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: clientMessage(error) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: INTERNAL });
  });
}

function describe(issue: { instancePath?: string; message?: string } | undefined): string {
  if (!issue) return 'The request is not valid.';
  const field = issue.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  return field ? `${field}: ${issue.message ?? 'is not valid'}` : (issue.message ?? 'The request is not valid.');
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not supported here.';
    default:
      return error.message;
  }
}
