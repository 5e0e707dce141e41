/**
 * Every request Encore sends to a server outside it (LRCLIB, an OpenAI-compatible endpoint,
 * the model hub) goes through here. Redirects are followed by hand, hop by hop, and only to
 * the origin (scheme, host and port) of the first request, or to origins the caller names:
 * a configured address must never become a way to reach another host or port (an internal
 * service, a cloud's metadata address). Each hop is an ordinary request with the same signal,
 * so the caller's time limits cover the whole chain.
 */

export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class OutboundRedirectError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    reason: string,
  ) {
    super(`${from} redirected to ${to}, ${reason}`);
    this.name = 'OutboundRedirectError';
  }
}

export interface OutboundOptions {
  /** Other places a redirect may lead (the hub's download hosts); the first request's origin always may. */
  mayRedirectTo?: (url: URL) => boolean;
  maxRedirects?: number;
  /** The fetch each hop goes through (a seam for a caller that injects one). */
  fetch?: typeof fetch;
}

export async function outboundFetch(input: string | URL, init: RequestInit = {}, options: OutboundOptions = {}): Promise<Response> {
  const first = new URL(input);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let url = first;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let hop = 0; ; hop += 1) {
    const response = await (options.fetch ?? fetch)(url, { ...init, method, body, headers, redirect: 'manual' });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = parseLocation(location, url);
    if (!next) throw new OutboundRedirectError(url.href, location, 'which is not an http(s) address');
    if (hop >= maxRedirects) throw new OutboundRedirectError(url.href, next.href, `more than ${maxRedirects} redirects in a row`);
    if (next.origin !== first.origin && !options.mayRedirectTo?.(next)) {
      throw new OutboundRedirectError(url.href, next.href, `another host or port than ${first.origin}, which Encore does not follow`);
    }
    // As browsers do: a 303, or a 301/302 after a POST, is followed by a GET without the body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    }
    // Credentials are for the origin they were configured for.
    if (next.origin !== url.origin) {
      headers.delete('authorization');
      headers.delete('cookie');
    }
    url = next;
  }
}

function parseLocation(location: string, base: URL): URL | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}
