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
  details: () => ['songs', 'detail'] as const,
  detail: (id: number) => ['songs', 'detail', id] as const,
};
