import { useEffect } from 'react';
import type { MessageKey } from './i18n/catalogue';
import { useT } from './i18n/i18n.store';

/**
 * Sets the tab title to "<page> · Encore" in the current language; `name` (a song's, say)
 * replaces the page's generic title once it is known.
 */
export function useDocumentTitle(page: MessageKey, name?: string | null): void {
  const t = useT();
  useEffect(() => {
    document.title = t('documentTitle', { page: name || t(page) });
  }, [t, page, name]);
}
