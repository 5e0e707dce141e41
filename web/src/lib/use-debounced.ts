import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `delayMs` (a search box: one request when typing
 * pauses, not one per keystroke). Emptied text passes at once.
 */
export function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return value.trim() === '' ? '' : settled;
}
