import { lazy, type ComponentType } from 'react';

const preloads = new Set<() => Promise<void>>();

/**
 * A component whose code arrives when it first renders (put it under a Suspense), like
 * `React.lazy`, but that renders at once, without suspending, once its module has arrived, and
 * that `preloadLazyComponents` can fetch ahead (tests render synchronously with it).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  const fetchIt = async () => {
    loaded ??= await load();
    return loaded;
  };
  const Lazy = lazy(async () => ({ default: await fetchIt() }));
  preloads.add(async () => void (await fetchIt()));
  function LazyComponent(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  return LazyComponent;
}

/** Fetches every `lazyComponent` defined so far. */
export async function preloadLazyComponents(): Promise<void> {
  await Promise.all([...preloads].map((preload) => preload()));
}
