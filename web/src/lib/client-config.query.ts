import { systemEndpoints, type ClientConfigResponse } from '@encore/common/http.contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from './endpoint-client';

export const clientConfigQueryKey = ['client-config'] as const;

export function fetchClientConfig(): Promise<ClientConfigResponse> {
  return callEndpoint(systemEndpoints.config, { fallbackMessage: 'Failed to load configuration' });
}

/** The server's public settings (Google client id, upload limit); they do not change while the page is open. */
export function useClientConfig() {
  return useQuery({
    queryKey: clientConfigQueryKey,
    queryFn: fetchClientConfig,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
