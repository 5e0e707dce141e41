import { outboundFetch } from '../../../platform/net/outbound-fetch.js';

/** What one listen says of its song (ListenBrainz's track_metadata). */
export interface ListenTrack {
  artistName: string;
  trackName: string;
  releaseName: string | null;
  durationSeconds: number | null;
  trackNumber: number | null;
}

/** How ListenBrainz answered a call that did not succeed, sorted by what to do next. */
export type ListenBrainzFailure =
  /** The token is not (or no longer) valid: asking again will not help. */
  | { kind: 'token-refused'; status: number; message: string }
  /** The listen itself was refused (400): sending it again will not help. */
  | { kind: 'refused'; status: number; message: string }
  /** Rate limited, a server error, or no answer: worth trying again later. */
  | { kind: 'try-later'; status: number | null; message: string; retryAfterSeconds: number | null };

export class ListenBrainzError extends Error {
  constructor(readonly failure: ListenBrainzFailure) {
    super(failure.message);
    this.name = 'ListenBrainzError';
  }
}

const TIMEOUT_MS = 15_000;
const MAX_FIELD = 1000;

/**
 * The ListenBrainz API calls Encore makes (https://listenbrainz.readthedocs.io, API v1): check a
 * user token (`GET /1/validate-token`) and submit a listen (`POST /1/submit-listens`, listen_type
 * single), each with `Authorization: Token <token>`. Through outboundFetch: redirects only within
 * the configured origin.
 */
export class ListenBrainzClient {
  constructor(
    private readonly baseUrl: string,
    private readonly client: { name: string; version: string },
  ) {}

  /** The ListenBrainz user name of a valid token; a `token-refused` failure when it is not valid. */
  async validateToken(token: string): Promise<string> {
    const response = await this.call('/1/validate-token', { method: 'GET', headers: { authorization: `Token ${token}` } });
    const body = (await response.json().catch(() => ({}))) as { valid?: unknown; user_name?: unknown; message?: unknown };
    if (body.valid === true && typeof body.user_name === 'string') return body.user_name;
    throw new ListenBrainzError({ kind: 'token-refused', status: response.status, message: String(body.message ?? 'Token invalid.') });
  }

  /** Submits one listen, started at `listenedAt`. */
  async submitListen(token: string, listenedAt: Date, track: ListenTrack): Promise<void> {
    const additional: Record<string, string | number> = {
      submission_client: this.client.name,
      submission_client_version: this.client.version,
      media_player: this.client.name,
    };
    if (track.durationSeconds !== null && track.durationSeconds > 0) additional['duration_ms'] = Math.round(track.durationSeconds * 1000);
    if (track.trackNumber !== null) additional['tracknumber'] = track.trackNumber;
    const body = {
      listen_type: 'single',
      payload: [
        {
          listened_at: Math.floor(listenedAt.getTime() / 1000),
          track_metadata: {
            artist_name: track.artistName.slice(0, MAX_FIELD),
            track_name: track.trackName.slice(0, MAX_FIELD),
            ...(track.releaseName ? { release_name: track.releaseName.slice(0, MAX_FIELD) } : {}),
            additional_info: additional,
          },
        },
      ],
    };
    await this.call('/1/submit-listens', {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  /** The answer when it is a success; a ListenBrainzError saying what to do otherwise. */
  private async call(path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await outboundFetch(`${this.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new ListenBrainzError({
        kind: 'try-later',
        status: null,
        message: `ListenBrainz could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        retryAfterSeconds: null,
      });
    }
    if (response.ok) return response;
    const message = await errorMessage(response);
    if (response.status === 401 || response.status === 403) throw new ListenBrainzError({ kind: 'token-refused', status: response.status, message });
    if (response.status === 429 || response.status >= 500) {
      const reset = Number(response.headers.get('x-ratelimit-reset-in') ?? response.headers.get('retry-after'));
      throw new ListenBrainzError({
        kind: 'try-later',
        status: response.status,
        message,
        retryAfterSeconds: Number.isFinite(reset) && reset > 0 ? reset : null,
      });
    }
    throw new ListenBrainzError({ kind: 'refused', status: response.status, message });
  }
}

/** ListenBrainz's own words (`{code, error}`), else the status. */
async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string' && body.error !== '') return `ListenBrainz answered ${response.status}: ${body.error.slice(0, 300)}`;
  } catch {
    // not JSON: the status says enough
  }
  return `ListenBrainz answered ${response.status}`;
}
