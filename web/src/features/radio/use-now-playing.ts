import { useQuery } from '@tanstack/react-query';
import { fetchNowPlaying } from './radio.api';

/** How often the title of the station playing is asked again. */
export const NOW_PLAYING_REFRESH_MS = 15_000;

/** What a station says it plays now (its ICY metadata, read by the server), asked while it plays. */
export function useNowPlaying(stationId: number, playing: boolean) {
  return useQuery({
    queryKey: ['radio', 'now-playing', stationId],
    queryFn: ({ signal }) => fetchNowPlaying(stationId, signal),
    enabled: playing,
    refetchInterval: playing ? NOW_PLAYING_REFRESH_MS : false,
    staleTime: 0,
  });
}
