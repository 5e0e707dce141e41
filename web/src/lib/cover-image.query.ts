import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { libraryEndpoints } from '@encore/common/library.contract';
import { isApiError } from './api-client';
import { callBlobEndpoint } from './endpoint-client';
import { translate } from './i18n/i18n.store';

export type CoverSize = 'thumb' | 'full';

const COVER_KEY = 'cover-image';

export function coverImageQueryKey(fileKey: string, size: CoverSize) {
  return [COVER_KEY, fileKey, size] as const;
}

/**
 * The song's cover art (SPEC 7: `files/extract-image?fileKey=`) as an object URL, or null when
 * the file has none: a 204, an empty or non-image answer, or a 404 all mean no image.
 */
export async function fetchCoverImage(fileKey: string, size: CoverSize, signal?: AbortSignal): Promise<string | null> {
  try {
    const answer = await callBlobEndpoint(libraryEndpoints.cover, {
      query: { fileKey, size },
      fallbackMessage: translate('fetchImageFailed'),
      signal,
    });
    if (!answer || answer.blob.size === 0 || !answer.blob.type.startsWith('image/')) return null;
    return URL.createObjectURL(answer.blob);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

const watched = new WeakSet<QueryClient>();

/**
 * Object URLs hold their image in memory until revoked: revoke each one when the cache drops
 * its query (after gcTime unused) or replaces its data.
 */
function revokeDroppedCovers(client: QueryClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  const urls = new Map<string, string>();
  client.getQueryCache().subscribe((event) => {
    const { query } = event;
    if (query.queryKey[0] !== COVER_KEY) return;
    const previous = urls.get(query.queryHash);
    const data: unknown = event.type === 'removed' ? undefined : query.state.data;
    const next = typeof data === 'string' ? data : undefined;
    if (previous && previous !== next) URL.revokeObjectURL(previous);
    if (next) urls.set(query.queryHash, next);
    else urls.delete(query.queryHash);
  });
}

/** The cover of a file with `hasCover`, fetched once per key and shared by every view of it. */
export function useCoverImage(fileKey: string | null, size: CoverSize, wanted = true) {
  const client = useQueryClient();
  useEffect(() => revokeDroppedCovers(client), [client]);
  return useQuery({
    queryKey: coverImageQueryKey(fileKey ?? '', size),
    queryFn: ({ signal }) => fetchCoverImage(fileKey ?? '', size, signal),
    enabled: Boolean(fileKey) && wanted,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
    retry: false,
  });
}
