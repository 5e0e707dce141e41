import { useCallback, useState } from 'react';

/** How far outside the viewport an element counts as near: a screen's scroll ahead. */
const NEAR = '600px';

/**
 * Whether the element given to the ref callback is in or near the viewport; once it has been,
 * it stays so (what it loaded stays). Without IntersectionObserver (old browsers, tests' DOM)
 * everything is near.
 */
export function useNearViewport<T extends Element>(): [(element: T | null) => void, boolean] {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: T | null) => {
      if (!element || near) return undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            setNear(true);
            observer.disconnect();
          }
        },
        { rootMargin: NEAR },
      );
      observer.observe(element);
      // React 19: the ref callback's cleanup runs when the element goes.
      return () => observer.disconnect();
    },
    [near],
  );
  return [ref, near];
}
