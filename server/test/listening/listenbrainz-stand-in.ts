import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listen as the stand-in accepted it, with the token it came with. */
export interface ReceivedListen {
  token: string;
  listenedAt: number;
  trackMetadata: { artist_name: string; track_name: string; release_name?: string; additional_info?: Record<string, unknown> };
}

/** A scripted answer to the next submission: the status, and the rate-limit header of a 429. */
export interface ScriptedAnswer {
  status: 429 | 500 | 503 | 401 | 400;
  resetInSeconds?: number;
}

/**
 * A loopback server of ListenBrainz's API v1, as much as Encore uses: `GET /1/validate-token`
 * and `POST /1/submit-listens` with `Authorization: Token <token>`, checking the payload as
 * ListenBrainz documents it (listen_type, one listen for `single`, an integer listened_at,
 * artist_name and track_name). Tokens are valid until revoked; answers can be scripted.
 */
export class ListenBrainzStandIn {
  readonly tokens = new Map<string, string>();
  readonly listens: ReceivedListen[] = [];
  /** Every submission attempt, accepted or not, by token. */
  readonly attempts: string[] = [];
  readonly script: ScriptedAnswer[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch(() => json(response, 500, { code: 500, error: 'stand-in failure' }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private tokenOf(request: IncomingMessage): string | undefined {
    const match = /^Token (\S+)$/.exec(request.headers.authorization ?? '');
    return match?.[1];
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const token = this.tokenOf(request);
    if (request.method === 'GET' && request.url === '/1/validate-token') {
      if (token === undefined) return json(response, 400, { code: 400, error: 'You need to provide an Authorization token.' });
      const userName = this.tokens.get(token);
      return json(
        response,
        200,
        userName ? { code: 200, message: 'Token valid.', valid: true, user_name: userName } : { code: 200, message: 'Token invalid.', valid: false },
      );
    }
    if (request.method === 'POST' && request.url === '/1/submit-listens') {
      this.attempts.push(token ?? '');
      if (token === undefined || !this.tokens.has(token)) return json(response, 401, { code: 401, error: 'Invalid authorization token.' });
      const scripted = this.script.shift();
      if (scripted) {
        if (scripted.resetInSeconds !== undefined) response.setHeader('X-RateLimit-Reset-In', String(scripted.resetInSeconds));
        return json(response, scripted.status, { code: scripted.status, error: `Scripted ${scripted.status}` });
      }
      if (request.headers['content-type'] !== 'application/json') return json(response, 400, { code: 400, error: 'Content-Type must be application/json' });
      const problem = checkSubmission(Buffer.concat(chunks).toString('utf8'));
      if (typeof problem === 'string') return json(response, 400, { code: 400, error: problem });
      this.listens.push({ token, ...problem });
      return json(response, 200, { status: 'ok' });
    }
    json(response, 404, { code: 404, error: 'Not found' });
  }
}

/** The listen of a valid `single` submission, or what is wrong with it. */
function checkSubmission(text: string): Omit<ReceivedListen, 'token'> | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'Cannot parse JSON document';
  }
  const { listen_type: type, payload } = body as { listen_type?: unknown; payload?: unknown };
  if (type !== 'single') return 'This stand-in takes single listens';
  if (!Array.isArray(payload) || payload.length !== 1) return 'JSON document must contain exactly one listen for listen_type single';
  const listen = payload[0] as { listened_at?: unknown; track_metadata?: Record<string, unknown> };
  if (typeof listen.listened_at !== 'number' || !Number.isInteger(listen.listened_at)) return 'JSON document must contain a listened_at integer';
  const metadata = listen.track_metadata;
  if (!metadata || typeof metadata['artist_name'] !== 'string' || metadata['artist_name'] === '') return 'JSON document must contain artist_name';
  if (typeof metadata['track_name'] !== 'string' || metadata['track_name'] === '') return 'JSON document must contain track_name';
  return { listenedAt: listen.listened_at, trackMetadata: metadata as ReceivedListen['trackMetadata'] };
}

function json(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
