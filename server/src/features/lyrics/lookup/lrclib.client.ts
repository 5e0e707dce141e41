import { z } from 'zod';
import { LYRICS_MESSAGES } from '@encore/common/lyrics.contract';
import { NotFoundError, ServiceUnavailableError } from '../../../platform/errors/app-errors.js';
import { outboundFetch } from '../../../platform/net/outbound-fetch.js';
import { readBodyLimited } from '../../../platform/net/read-limited.js';

/**
 * LRCLIB's public API (keyless): `/api/get` (one exact match by title, artist, album and
 * duration), `/api/get/{id}` and `/api/search`. One request per call, a time limit on each,
 * no retries: a lookup the user asked for either answers or says why not.
 */

const record = z.object({
  id: z.number().int(),
  trackName: z.string().nullable().catch(null),
  artistName: z.string().nullable().catch(null),
  albumName: z.string().nullable().catch(null),
  duration: z.number().nullable().catch(null),
  instrumental: z.boolean().nullable().catch(null),
  plainLyrics: z.string().nullable().catch(null),
  syncedLyrics: z.string().nullable().catch(null),
});
export type LrclibRecord = z.infer<typeof record>;

export interface LrclibQuery {
  title: string;
  artist: string | null;
  album: string | null;
  durationSeconds: number | null;
}

/** Answers larger than this are not lyrics. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const USER_AGENT = 'Encore (self-hosted music library)';

export class LrclibClient {
  constructor(private readonly options: { baseUrl: string; timeoutMs: number }) {}

  /** The exact match (title, artist, album, duration within LRCLIB's 2 s), or undefined. */
  async get(query: LrclibQuery): Promise<LrclibRecord | undefined> {
    if (!query.artist || query.durationSeconds === null) return undefined;
    const params = new URLSearchParams({ track_name: query.title, artist_name: query.artist, duration: String(Math.round(query.durationSeconds)) });
    if (query.album) params.set('album_name', query.album);
    const answer = await this.request(`/api/get?${params.toString()}`);
    return answer === undefined ? undefined : record.parse(answer);
  }

  async byId(id: number): Promise<LrclibRecord> {
    const answer = await this.request(`/api/get/${id}`);
    if (answer === undefined) throw new NotFoundError(LYRICS_MESSAGES.candidateMissing);
    const parsed = record.safeParse(answer);
    if (!parsed.success) throw new ServiceUnavailableError(LYRICS_MESSAGES.lookupUnreachable);
    return parsed.data;
  }

  async search(query: LrclibQuery): Promise<LrclibRecord[]> {
    const params = new URLSearchParams({ track_name: query.title });
    if (query.artist) params.set('artist_name', query.artist);
    const answer = await this.request(`/api/search?${params.toString()}`);
    if (!Array.isArray(answer)) return [];
    return answer.flatMap((entry) => {
      const parsed = record.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The JSON answer; undefined for 404; ServiceUnavailableError for anything else that is not 200. */
  private async request(pathAndQuery: string): Promise<unknown> {
    let response: Response;
    try {
      response = await outboundFetch(`${this.options.baseUrl}${pathAndQuery}`, {
        headers: { accept: 'application/json', 'user-agent': USER_AGENT },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      throw new ServiceUnavailableError(LYRICS_MESSAGES.lookupUnreachable);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ServiceUnavailableError(LYRICS_MESSAGES.lookupUnreachable);
    }
    try {
      return JSON.parse(await readBodyLimited(response, MAX_ANSWER_BYTES));
    } catch {
      throw new ServiceUnavailableError(LYRICS_MESSAGES.lookupUnreachable);
    }
  }
}
