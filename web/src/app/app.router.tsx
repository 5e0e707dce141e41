import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthPage } from '../features/auth/auth.page';
import { ProfilePage } from '../features/auth/profile.page';
import { useSession } from '../features/auth/session.store';
import { ResetPasswordPage } from '../features/auth/reset-password.page';
import { LandingPage } from '../features/landing/landing.page';
import { MusicPage } from '../features/library/music.page';
import { SongPage } from '../features/library/song.page';
import { NotFoundPage } from '../features/not-found/not-found.page';
import { CreatePlaylistPage } from '../features/playlists/create-playlist.page';
import { PlaylistPage } from '../features/playlists/playlist.page';
import { PlaylistsPage } from '../features/playlists/playlists.page';
import { SharePage } from '../features/sharing/share.page';
import { UploadPage } from '../features/upload/upload.page';
import { Spinner } from '../components/ui/spinner';
import { AppLayout } from './app.layout';
import { GuestOnly, NumericParam, RequireAuth } from './route-guards';
import { RouteErrorPage } from './route-error.page';

/** The landing page; its Get Started leads a signed-in user into the library. */
function Landing() {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  return <LandingPage getStartedTo={isLoggedIn ? '/music' : '/signin'} />;
}

/**
 * Pages that need a signed-in user (SPEC 2). Adding one is one line here, e.g.
 * `{ path: 'music', element: <MusicPage /> }`; guests are sent to /signin?next=... and back.
 */
export const protectedRoutes: RouteObject[] = [
  { path: 'music', element: <MusicPage /> },
  { path: 'music/:id', element: <NumericParam name="id" element={<SongPage />} /> },
  { path: 'upload', element: <UploadPage /> },
  { path: 'playlists', element: <PlaylistsPage /> },
  { path: 'playlists/:id', element: <NumericParam name="id" element={<PlaylistPage />} /> },
  { path: 'create-playlist', element: <CreatePlaylistPage /> },
  // DECISIONS: the profile dialog's View Profile and My Music lead somewhere real.
  { path: 'profile', element: <ProfilePage /> },
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
              { path: 'signin', element: <AuthPage /> },
              { path: 'signup', element: <AuthPage /> },
            ],
          },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          {
            path: 'verify-email',
            hydrateFallbackElement: <RouteLoading />,
            lazy: async () => ({ Component: (await import('../features/auth/verify-email.page')).VerifyEmailPage }),
          },
          // Public: a shared song plays without an account (DECISIONS, sharing by e-mail).
          { path: 'share/:token', element: <SharePage /> },
          { element: <RequireAuth />, children: protectedRoutes },
          { path: '*', element: <NotFoundPage /> },
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
