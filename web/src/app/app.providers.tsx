import { TOAST_DURATION_MS, TOAST_VISIBLE_MAX } from '@encore/common/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { isApiError } from '../lib/api-client';
import { textDirection, translate, useLanguage } from '../lib/i18n/i18n.store';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // A 4xx answer will not change on a retry; a dropped connection or a 5xx might.
        retry: (failureCount, error) =>
          failureCount < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
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
