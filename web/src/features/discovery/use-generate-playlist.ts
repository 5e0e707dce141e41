import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-client';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { cacheMadePlaylist } from '../../lib/playlist-cache';
import { postGeneratePlaylist } from './discovery.api';

/**
 * Statuses with which the server says the library cannot answer this prompt (nothing analysed,
 * nothing matches, a prompt it refuses): its message says why and what would help, so the page
 * shows it; any other failure is the spec's 'Failed to generate playlist. Please try again.'.
 */
export const EXPLAINED_STATUSES = [400, 404, 409, 413, 422, 429, 503] as const;

export function explainedFailure(error: unknown): string | null {
  if (!isApiError(error) || !error.serverMessage) return null;
  return (EXPLAINED_STATUSES as readonly number[]).includes(error.status) ? error.serverMessage : null;
}

/**
 * Generates a playlist from a prompt (SPEC 4): the answer joins the playlists cache and becomes
 * the cached detail ("made current"), so View Playlist opens at once; toasts per SPEC 8. A
 * failure the server explains (nothing matches...) is said once, in the page's panel, not also
 * in a toast; any other failure is the spec's toast.
 */
export function useGeneratePlaylist() {
  const t = useT();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (prompt: string) => postGeneratePlaylist(prompt),
    onSuccess: (outcome) => {
      toast.success(t('aiGenerated'));
      void cacheMadePlaylist(client, outcome.id);
    },
    onError: (error) => {
      if (explainedFailure(error) === null) toastApiError(error, { fallback: t('aiGenerateFailed'), serverMessage: 'never' });
    },
  });
}
