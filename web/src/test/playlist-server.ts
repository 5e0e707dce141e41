import type { Song } from '@encore/common/library.contract';
import type { Playlist } from '@encore/common/playlists.contract';
import type { RecordedRequest, StubResponse } from './fetch-stub';
import { filesRoute } from './files-route';
import { toSummary } from './playlist-fixture';

type Handler = StubResponse | ((request: RecordedRequest) => StubResponse | Promise<StubResponse>);

/**
 * Routes for stubFetch that behave like the playlists API for one playlist: they keep its
 * songs in order and answer with the playlist as it then stands. `library` is GET /api/files.
 */
export function playlistServer(initial: Playlist, library: Song[]) {
  const state = { playlist: structuredClone(initial), deleted: false };
  const answer = (): StubResponse => ({ body: state.playlist });
  const setSongs = (songs: Song[]) => {
    state.playlist = { ...state.playlist, songs, songCount: songs.length };
  };
  const id = initial.id;
  const routes: Record<string, Handler> = {
    'GET /api/files': filesRoute(library),
    'GET /api/playlists': () => ({ body: state.deleted ? [] : [toSummary(state.playlist)] }),
    [`GET /api/playlists/${id}`]: () => (state.deleted ? { status: 404, body: { message: 'Playlist not found' } } : answer()),
    [`PUT /api/playlists/${id}`]: (request) => {
      const body = request.body as { name: string; description: string | null };
      state.playlist = { ...state.playlist, name: body.name, description: body.description };
      return answer();
    },
    [`DELETE /api/playlists/${id}`]: () => {
      state.deleted = true;
      return { status: 204 };
    },
    [`POST /api/playlists/${id}/songs`]: (request) => {
      const songId = (request.body as { SongId: number }).SongId;
      if (state.playlist.songs.some((song) => song.id === songId)) return { status: 409, body: { message: 'This song is already in the playlist.' } };
      const song = library.find((entry) => entry.id === songId);
      if (!song) return { status: 404, body: { message: 'Song not found' } };
      setSongs([...state.playlist.songs, song]);
      return answer();
    },
    [`PUT /api/playlists/${id}/songs`]: (request) => {
      const ids = (request.body as { songIds: number[] }).songIds;
      setSongs(ids.map((songId) => state.playlist.songs.find((song) => song.id === songId)!));
      return answer();
    },
  };
  for (const song of library) {
    routes[`DELETE /api/playlists/${id}/songs/${song.id}`] = () => {
      setSongs(state.playlist.songs.filter((entry) => entry.id !== song.id));
      return answer();
    };
    routes[`GET /api/files/${song.id}/play`] = { body: { url: `/stream/${song.id}` } };
  }
  return { routes, state };
}
