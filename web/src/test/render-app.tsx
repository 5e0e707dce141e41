import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders, createQueryClient } from '../app/app.providers';
import { appRoutes } from '../app/app.router';
import { preloadLazyComponents } from '../lib/lazy-component';

/**
 * The app loads its pages lazily (`lazyPage` in app.router.tsx); tests render synchronously, so
 * every lazy route is resolved once here, before any test renders it: the route objects get the
 * element their `lazy` would give. The lazy loading itself is what the build and e2e exercise.
 */
async function resolveLazyRoutes(routes: RouteObject[]): Promise<void> {
  for (const route of routes) {
    if (typeof route.lazy === 'function') {
      Object.assign(route, await route.lazy());
      delete route.lazy;
    }
    if (route.children) await resolveLazyRoutes(route.children);
  }
}
await resolveLazyRoutes(appRoutes);
await preloadLazyComponents();

/** Renders routes (the app's by default) in memory, with the app's providers and toasts. */
export function renderApp(path: string, routes: RouteObject[] = appRoutes, state?: unknown) {
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: path.split('?')[0], search: path.includes('?') ? `?${path.split('?')[1]}` : '', state }],
  });
  const queryClient = createQueryClient({ retry: false });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}

/** The current location of a memory router as "/path?search". */
export function currentPath(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search } = router.state.location;
  return `${pathname}${search}`;
}
