import { ArrowRight, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FeatureCards } from './feature-cards.component';

/** The bar heights (percent) of a still equaliser under the hero; purely decorative. */
const BARS = [38, 64, 46, 82, 58, 96, 70, 52, 78, 44, 62, 34];

/**
 * The landing page (SPEC 2). `getStartedTo` is /signin for a visitor; a signed-in user is sent
 * somewhere useful (the library) rather than to a sign-in page that would bring them back here.
 */
export function LandingPage({ getStartedTo = '/signin' }: { getStartedTo?: string }) {
  const t = useT();
  useDocumentTitle('landingTitle');
  return (
    <div className="relative isolate overflow-hidden">
      <div aria-hidden className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 h-[560px] w-[900px] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,rgba(147,51,234,0.35),transparent)] blur-2xl" />
        {/* Inside the page, so its soft edge fades out instead of being cut by the window. */}
        <div className="absolute top-40 right-[4%] h-[380px] w-[380px] max-w-[60vw] rounded-full bg-[radial-gradient(closest-side,rgba(217,70,239,0.18),transparent)] blur-2xl" />
        <div className="absolute inset-0 bg-[linear-gradient(to_bottom,transparent,var(--color-background)_85%)]" />
      </div>

      <div className="mx-auto flex max-w-6xl flex-col items-center gap-14 px-4 pt-32 pb-12 sm:px-6 sm:pt-40 lg:pb-16">
        <div className="flex max-w-3xl flex-col items-center gap-6 text-center">
          <Badge>
            <Sparkles aria-hidden className="size-3.5" />
            {t('landingBadge')}
          </Badge>
          <h1 className="text-5xl leading-[1.05] font-extrabold tracking-tight text-balance sm:text-6xl lg:text-7xl">
            {t('landingHeadlineLead')} <span className="text-gradient">{t('landingHeadlineAccent')}</span>
          </h1>
          <p className="max-w-2xl text-lg leading-relaxed text-pretty text-muted sm:text-xl">{t('landingTagline')}</p>
          <Button asChild size="lg" className="mt-2 h-13 rounded-2xl px-8 text-base">
            <Link to={getStartedTo}>
              {t('landingGetStarted')}
              <ArrowRight aria-hidden className="size-5 rtl:rotate-180" />
            </Link>
          </Button>
          <div aria-hidden className="mt-4 flex h-16 items-end gap-1.5 opacity-70">
            {BARS.map((height, index) => (
              <span key={index} className="w-2 rounded-full bg-accent-gradient" style={{ height: `${height}%`, opacity: 0.35 + (height / 100) * 0.65 }} />
            ))}
          </div>
        </div>
        <FeatureCards />
      </div>
    </div>
  );
}
