import { vi } from 'vitest';

/** A recorded request to the stubbed network. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  /** A multipart body as sent (FormData). */
  form?: FormData;
  credentials: RequestCredentials | undefined;
}

export interface StubResponse {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON (a proxy's HTML page, say). */
  text?: string;
  headers?: Record<string, string>;
}

type Handler = StubResponse | ((request: RecordedRequest) => StubResponse | Promise<StubResponse>);

/**
 * Replaces `fetch` (the network boundary) with canned answers keyed by "METHOD /path".
 * Unknown requests answer 404 {message:'Not found'}. Returns the list of requests made.
 */
export function stubFetch(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const rawBody = typeof init?.body === 'string' ? init.body : undefined;
    const request: RecordedRequest = {
      method,
      path: url.pathname + url.search,
      headers: new Headers(init?.headers),
      body: rawBody === undefined ? undefined : (JSON.parse(rawBody) as unknown),
      form: init?.body instanceof FormData ? init.body : undefined,
      credentials: init?.credentials,
    };
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    const answer: StubResponse =
      handler === undefined ? { status: 404, body: { message: 'Not found' } } : typeof handler === 'function' ? await handler(request) : handler;
    const status = answer.status ?? 200;
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'Content-Type': answer.text === undefined ? 'application/json' : 'text/html', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}
