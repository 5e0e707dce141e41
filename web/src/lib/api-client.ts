import type { ErrorResponse } from '@encore/common/http.contract';
import { localizedServerMessage } from './limit-text';
import { readStoredToken } from './session-storage';

/** The API lives under /api on the same origin as the web app (DECISIONS, wire contract). */
export const API_BASE = '/api';

/**
 * A failed API call. `status` is the HTTP status (0 when the server could not be reached);
 * `serverMessage` is the `{message}` the server answered with, if any; `message` is that
 * text or, without one, the caller's fallback. A per-user limit's answer (fair shares) is
 * kept in the user's language, with the server's figures, wherever it is shown.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly serverMessage: string | null;

  constructor(
    readonly status: number,
    message: string,
    serverMessage: string | null,
    options?: ErrorOptions,
  ) {
    super(localizedServerMessage(message), options);
    this.serverMessage = serverMessage === null ? null : localizedServerMessage(serverMessage);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

/**
 * What checks a success body: a zod schema fits, and so does anything else with its
 * `safeParse` (the client core imports no zod, so the landing page does not download it).
 */
export interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export interface ApiRequestOptions<T> {
  method?: Method;
  /** Sent as JSON; a FormData is sent as multipart/form-data (the browser sets the boundary). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Validates (and types) the success body; a mismatch is reported as a failure. */
  schema: ResponseSchema<T>;
  /** What to say when the server gives no message of its own. */
  fallbackMessage: string;
  signal?: AbortSignal;
}

/** `/api/<path>?<query>`; a query value that is null or undefined is left out. */
export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}/${path.replace(/^\/+/, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** Headers with the bearer token when one is stored (SPEC 6). */
function authorizedHeaders(init: Record<string, string>): Headers {
  const headers = new Headers(init);
  const token = readStoredToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** The ApiError for a non-2xx answer: the server's `{message}` when it gave one. */
function failure(status: number, payload: unknown, fallbackMessage: string): ApiError {
  // Checked by hand, not with the zod schema: the client core stays free of zod, so the landing
  // page does not download it (bench/web/landing-weight.bench.ts).
  const message = isErrorResponse(payload) ? payload.message : '';
  const serverMessage = message.trim() ? message : null;
  return new ApiError(status, serverMessage ?? fallbackMessage, serverMessage);
}

function isErrorResponse(payload: unknown): payload is ErrorResponse {
  return typeof payload === 'object' && payload !== null && typeof (payload as { message?: unknown }).message === 'string';
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON (a proxy's HTML error page, say): treated as no body
  }
}

/**
 * One call to the Encore API: JSON in and out, the bearer token when one is stored, cookies
 * included, no timeout; any 2xx is a success (SPEC 9).
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  return (await apiRequestWithHeaders(path, options)).data;
}

/** `apiRequest` that also hands back the answer's headers (a page's total count, say). */
export async function apiRequestWithHeaders<T>(path: string, options: ApiRequestOptions<T>): Promise<{ data: T; headers: Headers }> {
  const { method = 'GET', body, query, schema, fallbackMessage, signal } = options;
  const headers = authorizedHeaders({ Accept: 'application/json' });
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers.set('Content-Type', 'application/json');

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, fallbackMessage, null, { cause: error });
  }

  const payload = await readBody(response);
  if (!response.ok) throw failure(response.status, payload, fallbackMessage);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiError(response.status, fallbackMessage, null, { cause: parsed.error });
  }
  return { data: parsed.data, headers: response.headers };
}

export interface ApiBlob {
  blob: Blob;
  /** From Content-Disposition (RFC 6266, `filename*` preferred), when the server named the file. */
  fileName: string | null;
}

export interface ApiBlobOptions {
  query?: Record<string, QueryValue>;
  fallbackMessage: string;
  signal?: AbortSignal;
}

/** The file name of a Content-Disposition header: `filename*=UTF-8''...` first, then `filename="..."`. */
export function contentDispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // a malformed escape: fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? name : null;
}

/**
 * A binary GET (cover art, a download) with the bearer header, which a plain `<img src>` or
 * link cannot send. Resolves to null for 204 No Content; failures throw ApiError as above.
 */
export async function apiBlobRequest(path: string, options: ApiBlobOptions): Promise<ApiBlob | null> {
  const { query, fallbackMessage, signal } = options;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      headers: authorizedHeaders({}),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, fallbackMessage, null, { cause: error });
  }
  if (!response.ok) throw failure(response.status, await readBody(response), fallbackMessage);
  if (response.status === 204) return null;
  const blob = await response.blob();
  return { blob, fileName: contentDispositionFileName(response.headers.get('Content-Disposition')) };
}
