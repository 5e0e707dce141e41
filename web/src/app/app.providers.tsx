import { TOAST_DURATION_MS, TOAST_VISIBLE_MAX } from '@encore/common/constants';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { isApiError } from '../lib/api-client';
import { toastApiError, type ApiErrorTextOptions } from '../lib/api-error-toast';
import { textDirection, translate, useLanguage } from '../lib/i18n/i18n.store';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorToastMeta;
    mutationMeta: ErrorToastMeta;
  }
}

/**
 * What a query or mutation says when it fails: `meta: { errorToast: { fallback: t('...') } }`
 * toasts through the one handler below (the server's message, else the fallback); without
 * `errorToast` nothing is toasted and the caller shows the failure its own way.
 */
export interface ErrorToastMeta extends Record<string, unknown> {
  errorToast?: ApiErrorTextOptions;
}

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    // The one place failures become toasts (ARCHITECTURE 3): each query or mutation opts in with its text.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorToast) toastApiError(error, query.meta.errorToast);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.errorToast) toastApiError(error, mutation.meta.errorToast);
      },
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // A 4xx answer will not change on a retry; a dropped connection or a 5xx might.
        retry: options.retry === false ? false : (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** App-wide providers: the query cache and the toast area (SPEC 2: top-center, rich colours, close button). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const language = useLanguage();
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster
        position="top-center"
        richColors
        closeButton
        duration={TOAST_DURATION_MS}
        visibleToasts={TOAST_VISIBLE_MAX}
        theme="dark"
        dir={textDirection(language)}
        containerAriaLabel={translate('toastRegionLabel', undefined, language)}
        // Under the fixed top bar, never over its links.
        offset={{ top: 80 }}
        mobileOffset={{ top: 72 }}
      />
    </QueryClientProvider>
  );
}
