import { toast } from 'sonner';
import { isApiError } from './api-client';

export interface ApiErrorTextOptions {
  /** Shown when nothing more specific applies. */
  fallback: string;
  /** Our own text for particular statuses, e.g. 401 on sign-in. */
  byStatus?: Partial<Record<number, string>>;
  /** When the server's own message is preferred: always (default), never, or for these statuses. */
  serverMessage?: 'always' | 'never' | readonly number[];
  /**
   * A fixed title for the toast ('Failed to save lyrics'); the text above becomes its
   * description, left out when it is empty.
   */
  title?: string;
}

/** The one place that decides what a failed call tells the user (ARCHITECTURE 3). */
export function apiErrorText(error: unknown, options: ApiErrorTextOptions): string {
  const { fallback, byStatus, serverMessage = 'always' } = options;
  if (!isApiError(error)) return fallback;
  const ours = byStatus?.[error.status];
  if (ours !== undefined) return ours;
  const useServer = serverMessage === 'always' || (Array.isArray(serverMessage) && serverMessage.includes(error.status));
  return useServer && error.serverMessage ? error.serverMessage : fallback;
}

/** Shows the failure as an error toast and returns the text shown. */
export function toastApiError(error: unknown, options: ApiErrorTextOptions): string {
  const text = apiErrorText(error, options);
  if (options.title === undefined) toast.error(text);
  else toast.error(options.title, { description: text || undefined });
  return text;
}
