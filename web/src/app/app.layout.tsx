import { Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { sessionStore, useSession } from '../lib/session.store';
import { PLAYER_BAR_SPACE_CLASS } from '../player/player-state';
import { player, usePlayer } from '../player/player.store';
import { usePlaylistNotices } from '../features/playlists/playlist-playback';
import { radio, useRadio } from '../features/radio/radio.store';
import { cn } from '../lib/cn';
import { lazyComponent } from '../lib/lazy-component';
import { useT } from '../lib/i18n/i18n.store';
import { Footer } from './footer.component';
import { useFinishLogOut } from './log-out';
import { TopBar } from './top-bar.component';

/** Whenever the path is /signin, a stored token means logged in and none means logged out (SPEC 2). */
function useSignInWatcher() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname === '/signin') sessionStore.syncWithStoredToken();
  }, [pathname]);
}

/** Songs and stations are for signed-in users: logging out stops the music and the radio, and hides the bar. */
function useStopPlayerOnLogOut() {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const restoring = useSession((state) => state.restoring);
  useEffect(() => {
    if (isLoggedIn || restoring) return;
    player.close();
    radio.stop();
  }, [isLoggedIn, restoring]);
}

/** The bar (sliders, popovers) arrives with the first song played, not with the landing page. */
const PlayerBar = lazyComponent(async () => (await import('../player/player-bar.component')).PlayerBar);

/** The station playing, on the other pages: it arrives with the first station played, like the bar. */
const RadioStrip = lazyComponent(async () => (await import('../features/radio/radio-strip.component')).RadioStrip);

/** The radio's element, handed to it when it mounts (a stable ref callback, with its cleanup). */
const attachRadio = (audio: HTMLAudioElement | null) => radio.attach(audio);

/** Room at the bottom of the page for the radio strip, above the player bar's (--player-bar-height, PLAYER_BAR_HEIGHT_VAR). */
const RADIO_STRIP_SPACE_CLASS = 'pb-[calc(var(--player-bar-height,0px)_+_5.5rem)]';

/**
 * The shared layout of every route: fixed top bar, page, footer, the player bar while a song is
 * selected, and the radio's one element, with its strip while a station plays and the Radio page is not open.
 */
export function AppLayout() {
  const t = useT();
  useSignInWatcher();
  useFinishLogOut();
  useStopPlayerOnLogOut();
  usePlaylistNotices();
  const playerShown = usePlayer((state) => state.current !== null);
  const { pathname } = useLocation();
  const stripShown = useRadio((state) => state.station !== null) && pathname !== '/radio';
  // Once loaded, the bar stays mounted (it hides itself) so its keyboard and media-session hooks persist.
  const [playerWanted, setPlayerWanted] = useState(false);
  if (playerShown && !playerWanted) setPlayerWanted(true);
  return (
    <div className={cn('flex min-h-dvh flex-col', stripShown ? RADIO_STRIP_SPACE_CLASS : playerShown && PLAYER_BAR_SPACE_CLASS)}>
      <a
        href="#main"
        className="fixed start-3 top-3 z-50 -translate-y-24 rounded-lg bg-surface-raised px-4 py-2 text-sm font-semibold ring-2 ring-ring transition-transform focus:translate-y-0"
      >
        {t('skipToContent')}
      </a>
      <TopBar />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <Outlet />
      </main>
      <Footer />
      {/* A station's live stream (radio.store.ts): no controls of its own; the Radio page and the strip drive it. */}
      <audio ref={attachRadio} data-encore-radio preload="none" className="hidden" />
      {playerWanted && (
        <Suspense fallback={null}>
          <PlayerBar />
        </Suspense>
      )}
      {/* After the bar: above its shadow (the strip sits above the bar itself, never on it). */}
      {stripShown && (
        <Suspense fallback={null}>
          <RadioStrip />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}
