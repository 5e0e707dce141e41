import { fillPath, type Endpoint, type PathParamNames, type PathParams } from '@encore/common/endpoint';
import type { z } from 'zod';
import { apiBlobRequest, apiRequestWithHeaders, buildUrl, type ApiBlob, type QueryValue, type ResponseSchema } from './api-client';

/**
 * Calls derived from the endpoint declarations of common/: the method, the path and the answer's
 * schema come from the declaration, so a call cannot drift from the route the server registers.
 * The declarations hold zod schemas but this file only calls their methods: it imports no zod.
 */

type ParamsOption<E extends Endpoint> = [PathParamNames<E['path']>] extends [never] ? { params?: undefined } : { params: PathParams<E['path']> };

type QueryOption<E extends Endpoint> = E['query'] extends z.ZodType ? { query?: { [Name in keyof z.input<E['query']>]?: QueryValue } } : { query?: undefined };

type BodyOption<E extends Endpoint> = E['multipart'] extends true
  ? { body: FormData }
  : E['body'] extends z.ZodType
    ? { body: z.input<E['body']> }
    : { body?: undefined };

/** What a call of the endpoint answers with: its response's output, nothing for 204. */
export type EndpointAnswer<E extends Endpoint> = E['status'] extends 204 ? void : E['response'] extends z.ZodType ? z.output<E['response']> : unknown;

interface CommonOptions {
  /** What to say when the server gives no message of its own. */
  fallbackMessage: string;
  signal?: AbortSignal | undefined;
}

export type EndpointCallOptions<E extends Endpoint, T = EndpointAnswer<E>> = CommonOptions &
  ParamsOption<E> &
  QueryOption<E> &
  BodyOption<E> & {
    /** A more lenient check of the answer than the declared response (an older server's, say). */
    schema?: ResponseSchema<T>;
  };

/** A 204 (or an answer nobody reads) is not checked. */
const anyAnswer: ResponseSchema<never> = { safeParse: (value) => ({ success: true, data: value as never }) };

function pathOf(endpoint: Endpoint, params: Record<string, string | number> | undefined): string {
  return fillPath(endpoint.path, params ?? {});
}

/** The URL of a call, for what cannot go through fetch (an EventSource, a link). */
export function endpointUrl<E extends Endpoint>(endpoint: E, options: ParamsOption<E> & QueryOption<E>): string {
  return buildUrl(pathOf(endpoint, options.params), options.query);
}

/** `callEndpoint` that also hands back the answer's headers (a page's total count, say). */
export async function callEndpointWithHeaders<E extends Endpoint, T = EndpointAnswer<E>>(
  endpoint: E,
  options: EndpointCallOptions<E, T>,
): Promise<{ data: T; headers: Headers }> {
  const schema = options.schema ?? (endpoint.response && endpoint.status !== 204 ? (endpoint.response as ResponseSchema<T>) : anyAnswer);
  return apiRequestWithHeaders(pathOf(endpoint, options.params), {
    method: endpoint.method,
    body: options.body,
    query: options.query,
    schema,
    fallbackMessage: options.fallbackMessage,
    signal: options.signal,
  });
}

/** One call of a declared endpoint, its answer checked by the declared response schema. */
export async function callEndpoint<E extends Endpoint, T = EndpointAnswer<E>>(endpoint: E, options: EndpointCallOptions<E, T>): Promise<T> {
  return (await callEndpointWithHeaders(endpoint, options)).data;
}

/** A GET of a binary answer (a download, a cover) with the bearer header; null for 204. */
export async function callBlobEndpoint<E extends Endpoint<'GET'>>(
  endpoint: E,
  options: CommonOptions & ParamsOption<E> & QueryOption<E>,
): Promise<ApiBlob | null> {
  return apiBlobRequest(pathOf(endpoint, options.params), { query: options.query, fallbackMessage: options.fallbackMessage, signal: options.signal });
}
