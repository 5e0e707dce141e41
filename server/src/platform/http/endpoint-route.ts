import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  LogLevel,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Endpoint } from '@encore/common/endpoint';

type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** Answers other than the endpoint's success: error statuses, a 304, a 204 of a binary route. */
export type ExtraResponses = Partial<Record<number, z.ZodType>>;

type SuccessResponse<E extends Endpoint> = E['status'] extends 204
  ? { 204: z.ZodNull }
  : E['response'] extends z.ZodType
    ? { [Status in E['status']]: E['response'] }
    : object;

/** The Fastify schema of an endpoint, as the type provider reads it to type the handler. */
export interface EndpointSchema<E extends Endpoint, Extra extends ExtraResponses> {
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: SuccessResponse<E> & Extra;
  tags: string[];
  summary: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  consumes?: string[];
}

export type EndpointHandler<E extends Endpoint, Extra extends ExtraResponses> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  EndpointSchema<E, Extra>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface RouteOptions<Extra extends ExtraResponses> {
  /** The error (and other non-success) answers, documented and serialised like the success. */
  responses?: Extra;
  /** OpenAPI security requirement: `[{ bearer: [] }]` for a route behind a signed-in user. */
  security?: Array<Record<string, string[]>>;
  onRequest?: Hook;
  /** Read by the request deadlines (platform/http/request-deadlines.ts). */
  config?: Record<string, unknown>;
  bodyLimit?: number;
  logLevel?: LogLevel;
}

/**
 * Registers an endpoint declared in common/: method, path, params, query, body and success
 * response come from the declaration, so the route, its OpenAPI operation and the web client's
 * call are one thing. A declaration without a response (a download, an event stream) leaves
 * the answer unserialised; a 204 answers null.
 */
export function route<E extends Endpoint, const Extra extends ExtraResponses = Record<never, never>>(
  app: ZodApp,
  endpoint: E,
  options: RouteOptions<Extra>,
  handler: EndpointHandler<E, Extra>,
): void {
  app.route<RouteGenericInterface, ContextConfigDefault, EndpointSchema<E, Extra>>({
    method: endpoint.method,
    url: endpoint.path,
    schema: schemaOf(endpoint, options),
    handler,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.config ? { config: options.config } : {}),
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
  });
}

function schemaOf<E extends Endpoint, Extra extends ExtraResponses>(endpoint: E, options: RouteOptions<Extra>): EndpointSchema<E, Extra> {
  const success = endpoint.status === 204 ? { 204: z.null() } : endpoint.response ? { [endpoint.status]: endpoint.response } : {};
  const response = { ...success, ...options.responses };
  return {
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(options.security ? { security: options.security } : {}),
    ...(endpoint.multipart ? { consumes: ['multipart/form-data'] } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    // Without any, OpenAPI documents its default 200 answer, as for a route with no response schema.
    ...(Object.keys(response).length > 0 ? { response: response as SuccessResponse<E> & Extra } : {}),
  } as EndpointSchema<E, Extra>;
}
