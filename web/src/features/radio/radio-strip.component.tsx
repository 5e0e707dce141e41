import { Radio, Square } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { radio, useRadio } from './radio.store';
import { useNowPlaying } from './use-now-playing';

/**
 * The station playing, shown on every page but the Radio page (issue 41): its name (a link back
 * to /radio), what it says it plays, and Stop. It floats just above the player bar (the bar
 * publishes its height as --player-bar-height), so it never covers the song controls; the layout
 * reserves room for it at the bottom of the page (RADIO_STRIP_SPACE_CLASS). Loaded with the
 * first station played elsewhere than its page, not with the landing page.
 */
export function RadioStrip() {
  const t = useT();
  const station = useRadio((state) => state.station);
  const nowPlaying = useNowPlaying(station?.id ?? 0, station !== null);
  if (!station) return null;
  const title = nowPlaying.data?.title;
  return (
    <section
      role="region"
      aria-label={t('radioStripLabel')}
      data-testid="radio-strip"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(var(--player-bar-height,0px)_+_0.75rem)] z-40 px-3 sm:px-6"
    >
      <div className="pointer-events-auto mx-auto flex max-w-md animate-slide-up items-center gap-3 rounded-2xl border border-accent/40 bg-surface-raised/95 py-2 ps-3 pe-2 shadow-xl shadow-black/40 backdrop-blur-xl">
        <span aria-hidden className="grid size-9 shrink-0 place-items-center rounded-full bg-fuchsia-500/15 text-fuchsia-300">
          <Radio className="size-4" />
        </span>
        <div className="relative flex min-w-0 flex-1 flex-col">
          <p className="flex min-w-0 items-center gap-2 text-sm font-semibold">
            {/* The link covers the name and the title beneath it (its ::after), a large target on a phone. */}
            <Link
              to="/radio"
              aria-label={t('radioStripOpen', { name: station.name })}
              className="min-w-0 truncate rounded outline-none after:absolute after:inset-0 hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            >
              <bdi>{station.name}</bdi>
            </Link>
            <span className="shrink-0 rounded-full bg-danger/15 px-2 py-0.5 text-[0.65rem] font-semibold tracking-wide text-danger uppercase">
              {t('radioLive')}
            </span>
          </p>
          {/* The title is cut at its own end (an English title in a Hebrew line too), the label kept whole. */}
          <p className="flex min-w-0 gap-1 text-xs text-muted" aria-live="polite" data-testid="radio-strip-now-playing">
            {title ? (
              <>
                <span className="shrink-0">{t('radioNowPlayingLabel')}</span>{' '}
                <bdi dir="auto" className="min-w-0 truncate">
                  {title}
                </bdi>
              </>
            ) : null}
          </p>
        </div>
        <Button size="icon" variant="primary" aria-label={t('radioStop', { name: station.name })} onClick={radio.stop} className="relative">
          <Square aria-hidden className="size-4 fill-current" />
        </Button>
      </div>
    </section>
  );
}
