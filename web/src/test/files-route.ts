import type { SongListEntry } from '@encore/common/library.contract';
import type { RecordedRequest, StubResponse } from './fetch-stub';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * GET /api/files over `songs` as the server answers it: q (every word in the
 * display name, artist or album, ignoring case and accents), limit and offset, and the total
 * in X-Total-Count. `songs` may be a function, to change the library between requests.
 */
export function filesRoute(songs: readonly SongListEntry[] | (() => readonly SongListEntry[])) {
  return (request: RecordedRequest): StubResponse => {
    const params = new URL(request.path, 'http://localhost').searchParams;
    const all = typeof songs === 'function' ? songs() : songs;
    const words = fold(params.get('q') ?? '')
      .split(/\s+/u)
      .filter(Boolean);
    // owner and favorites are the server's business: the canned list is the list asked for.
    const matching = all.filter((song) =>
      words.every((word) => [song.displayName, song.artist, song.album].some((field) => field && fold(field).includes(word))),
    );
    const offset = Number(params.get('offset') ?? 0);
    const limit = params.has('limit') ? Number(params.get('limit')) : matching.length;
    return { body: matching.slice(offset, offset + limit), headers: { 'X-Total-Count': String(matching.length) } };
  };
}
