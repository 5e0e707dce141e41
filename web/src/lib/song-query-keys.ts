/**
 * The query-cache keys of songs, shared by the features that read them (library, player) and
 * those that change them (upload, playlists). Invalidating `songQueryKeys.all` refreshes all.
 */
export interface SongListFilter {
  owner: boolean;
  favorites: boolean;
}

export const songQueryKeys = {
  all: ['songs'] as const,
  lists: () => ['songs', 'list'] as const,
  list: (filter: SongListFilter) => ['songs', 'list', filter] as const,
  /** One page of a list: under the list's key, so invalidating the list refreshes its pages. */
  page: (request: SongListFilter & { q: string; sort: string; limit: number; offset: number }) =>
    [
      'songs',
      'list',
      { owner: request.owner, favorites: request.favorites },
      { q: request.q.trim(), sort: request.sort, limit: request.limit, offset: request.offset },
    ] as const,
  details: () => ['songs', 'detail'] as const,
  detail: (id: number) => ['songs', 'detail', id] as const,
};
