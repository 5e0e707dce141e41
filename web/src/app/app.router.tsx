import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { useSession } from '../lib/session.store';
import { LandingPage } from '../features/landing/landing.page';
import { Spinner } from '../components/ui/spinner';
import { AppLayout } from './app.layout';
import { GuestOnly, NumericParam, RequireAdmin, RequireAuth } from './route-guards';
import { RouteErrorPage } from './route-error.page';

/** The landing page; its Get Started leads a signed-in user into the library. */
function Landing() {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  return <LandingPage getStartedTo={isLoggedIn ? '/music' : '/signin'} />;
}

/**
 * A page loaded when its route is first visited, so the landing page downloads only what it
 * shows (the budget: `bench/web/landing-weight.bench.ts`). `wrap` puts the page inside a guard.
 */
function lazyPage(load: () => Promise<ComponentType>, wrap?: (page: ReactNode) => ReactNode): Pick<RouteObject, 'lazy' | 'hydrateFallbackElement'> {
  return {
    hydrateFallbackElement: <RouteLoading />,
    lazy: async () => {
      const Page = await load();
      return { element: wrap ? wrap(<Page />) : <Page /> };
    },
  };
}

const numericId = (page: ReactNode) => <NumericParam name="id" element={page} />;
const loadAuthPage = async () => (await import('../features/auth/auth.page')).AuthPage;

/**
 * Pages that need a signed-in user (SPEC 2). Adding one is one line here, e.g.
 * `{ path: 'music', ...lazyPage(async () => (await import('...')).MusicPage) }`; guests are sent to /signin?next=... and back.
 */
export const protectedRoutes: RouteObject[] = [
  { path: 'music', ...lazyPage(async () => (await import('../pages/music.page')).ComposedMusicPage) },
  { path: 'music/:id', ...lazyPage(async () => (await import('../pages/song.page')).ComposedSongPage, numericId) },
  // The word-timing editor (issue 11): from the song page's lyrics panel and the Song2Clip editor.
  { path: 'music/:id/words', ...lazyPage(async () => (await import('../features/lyrics/word-editor.page')).WordEditorPage, numericId) },
  { path: 'artists', ...lazyPage(async () => (await import('../features/browse/artists.page')).ArtistsPage) },
  { path: 'artists/:id', ...lazyPage(async () => (await import('../features/browse/artist.page')).ArtistPage) },
  { path: 'albums', ...lazyPage(async () => (await import('../features/browse/albums.page')).AlbumsPage) },
  { path: 'albums/:id', ...lazyPage(async () => (await import('../pages/album.page')).ComposedAlbumPage) },
  { path: 'genres', ...lazyPage(async () => (await import('../features/browse/genres.page')).GenresPage) },
  { path: 'radio', ...lazyPage(async () => (await import('../features/radio/radio.page')).RadioPage) },
  { path: 'upload', ...lazyPage(async () => (await import('../features/upload/upload.page')).UploadPage) },
  { path: 'playlists', ...lazyPage(async () => (await import('../features/playlists/playlists.page')).PlaylistsPage) },
  { path: 'playlists/:id', ...lazyPage(async () => (await import('../features/playlists/playlist.page')).PlaylistPage, numericId) },
  // Smart playlists (issue 41): their page and the rule editor.
  { path: 'smart-playlists/new', ...lazyPage(async () => (await import('../features/playlists/smart/smart-playlist-editor.page')).SmartPlaylistEditorPage) },
  { path: 'smart-playlists/:id', ...lazyPage(async () => (await import('../features/playlists/smart/smart-playlist.page')).SmartPlaylistPage, numericId) },
  {
    path: 'smart-playlists/:id/edit',
    ...lazyPage(async () => (await import('../features/playlists/smart/smart-playlist-editor.page')).SmartPlaylistEditorPage, numericId),
  },
  { path: 'song2clip', ...lazyPage(async () => (await import('../features/clips/song2clip.page')).Song2ClipPage) },
  { path: 'clips', ...lazyPage(async () => (await import('../features/clips/my-clips.page')).MyClipsPage) },
  { path: 'ai-playlist', ...lazyPage(async () => (await import('../features/discovery/ai-playlist.page')).AiPlaylistPage) },
  { path: 'create-playlist', ...lazyPage(async () => (await import('../features/playlists/create-playlist.page')).CreatePlaylistPage) },
  // DECISIONS: the profile dialog's View Profile and My Music lead somewhere real.
  { path: 'profile', ...lazyPage(async () => (await import('../pages/profile.page')).ComposedProfilePage) },
  { path: 'my-music', element: <Navigate to="/music?owner=true" replace /> },
];

export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        // Inside the layout, so the top bar and footer stay when a page fails.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Landing /> },
          {
            element: <GuestOnly />,
            children: [
              { path: 'signin', ...lazyPage(loadAuthPage) },
              { path: 'signup', ...lazyPage(loadAuthPage) },
            ],
          },
          { path: 'reset-password', ...lazyPage(async () => (await import('../features/auth/reset-password.page')).ResetPasswordPage) },
          { path: 'verify-email', ...lazyPage(async () => (await import('../features/auth/verify-email.page')).VerifyEmailPage) },
          // Public: a shared song plays without an account (DECISIONS, sharing by e-mail).
          { path: 'share/:token', ...lazyPage(async () => (await import('../features/sharing/share.page')).SharePage) },
          { element: <RequireAuth />, children: protectedRoutes },
          // Admins only; everyone else (guests too) gets Not Found, as the admin calls answer them 404 (issue 29).
          {
            path: 'admin',
            ...lazyPage(
              async () => (await import('../features/admin/admin.page')).AdminPage,
              (page) => <RequireAdmin>{page}</RequireAdmin>,
            ),
          },
          { path: '*', ...lazyPage(async () => (await import('../features/not-found/not-found.page')).NotFoundPage) },
        ],
      },
    ],
  },
];

/** Shown while a lazily loaded page arrives. */
function RouteLoading() {
  return (
    <div role="status" className="flex flex-1 items-center justify-center py-32">
      <Spinner className="size-6" />
    </div>
  );
}

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
