import { LANDING_CARD_COUNT, LANDING_ROTATION_MS } from '@encore/common/constants';
import { ArrowRight, Clapperboard, MicVocal, Sparkles, Upload, type LucideIcon } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Progress } from '../../components/ui/progress';
import { cn } from '../../lib/cn';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT } from '../../lib/i18n/i18n.store';

interface FeatureCard {
  /** Relative route, as in SPEC 2. */
  to: string;
  title: MessageKey;
  description: MessageKey;
  icon: LucideIcon;
}

export const FEATURE_CARDS: readonly FeatureCard[] = [
  { to: 'upload', title: 'featureUploadTitle', description: 'featureUploadDescription', icon: Upload },
  { to: 'ai-playlist', title: 'featureAiPlaylistTitle', description: 'featureAiPlaylistDescription', icon: Sparkles },
  { to: 'music', title: 'featureLyricsTitle', description: 'featureLyricsDescription', icon: MicVocal },
  { to: 'song2clip', title: 'featureSong2ClipTitle', description: 'featureSong2ClipDescription', icon: Clapperboard },
];

/** The highlighted card moves on every `intervalMs`; choosing a card restarts the count from there. */
export function useRotatingIndex(count: number, intervalMs: number) {
  const [index, setIndex] = useState(0);
  const [restarts, setRestarts] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => clearInterval(timer);
  }, [count, intervalMs, restarts]);
  const choose = useCallback((next: number) => {
    setIndex(next);
    setRestarts((value) => value + 1);
  }, []);
  return [index, choose] as const;
}

export function FeatureCards() {
  const t = useT();
  const navigate = useNavigate();
  const [active, setActive] = useRotatingIndex(LANDING_CARD_COUNT, LANDING_ROTATION_MS);
  const progress = (active + 1) * (100 / LANDING_CARD_COUNT);

  return (
    <section aria-labelledby="features-heading" id="features" className="flex w-full flex-col gap-6">
      <h2 id="features-heading" className="sr-only">
        {t('landingFeaturesHeading')}
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {FEATURE_CARDS.map((card, index) => {
          const Icon = card.icon;
          const highlighted = index === active;
          return (
            <li key={card.to}>
              <button
                type="button"
                data-active={highlighted}
                aria-current={highlighted ? 'true' : undefined}
                onClick={() => {
                  setActive(index);
                  void navigate(card.to);
                }}
                className={cn(
                  'group relative flex h-full w-full cursor-pointer flex-col gap-4 overflow-hidden rounded-(--radius-card) border p-5 text-start transition-all duration-500 outline-none sm:p-6',
                  'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
                  highlighted
                    ? 'border-accent/60 bg-surface-raised shadow-xl shadow-fuchsia-950/50 motion-safe:-translate-y-1'
                    : 'border-border bg-surface/60 hover:border-accent/40 hover:bg-surface',
                )}
              >
                <span
                  aria-hidden
                  className={cn(
                    'pointer-events-none absolute -end-10 -top-10 size-32 rounded-full bg-fuchsia-500/20 blur-2xl transition-opacity duration-500',
                    highlighted ? 'opacity-100' : 'opacity-0',
                  )}
                />
                <span
                  className={cn(
                    'grid size-12 place-items-center rounded-2xl transition-colors duration-500',
                    highlighted ? 'bg-accent-gradient text-white' : 'bg-white/5 text-fuchsia-300',
                  )}
                >
                  <Icon aria-hidden className="size-6" />
                </span>
                <span className="flex flex-col gap-1.5">
                  <span className="text-lg font-semibold tracking-tight">{t(card.title)}</span>
                  <span className="text-sm leading-relaxed text-muted">{t(card.description)}</span>
                </span>
                <ArrowRight
                  aria-hidden
                  className={cn(
                    'mt-auto size-5 transition-all duration-300 rtl:rotate-180',
                    highlighted ? 'text-fuchsia-300' : 'text-subtle group-hover:text-fuchsia-300',
                  )}
                />
              </button>
            </li>
          );
        })}
      </ul>
      <Progress value={progress} aria-label={t('landingProgressLabel', { index: active + 1, count: LANDING_CARD_COUNT })} className="mx-auto h-1 max-w-md" />
    </section>
  );
}
