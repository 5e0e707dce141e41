import { AtSign, CodeXml, Globe, MessageCircle, Rss, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { LogoMark } from '../components/logo-mark';
import type { MessageKey } from '../lib/i18n/catalogue';
import { useT } from '../lib/i18n/i18n.store';

/** Where Encore's source code is hosted. */
const SOURCE_CODE_URL = 'https://github.com/';

interface FooterLink {
  label: MessageKey;
  /** A path inside the app (a router link) or a plain href. */
  to?: string;
  href?: string;
}

const COLUMNS: readonly { title: MessageKey; links: readonly FooterLink[] }[] = [
  {
    title: 'footerProduct',
    links: [
      { label: 'footerFeatures', href: '#features' },
      { label: 'footerPricing', href: '#pricing' },
      { label: 'footerApi', href: '#' },
      { label: 'footerIntegrations', href: '#' },
      { label: 'footerUpdates', href: '#' },
    ],
  },
  {
    title: 'footerResources',
    links: [
      { label: 'footerDocumentation', href: '#' },
      { label: 'footerTutorials', href: '#' },
      { label: 'footerBlog', href: '#' },
      { label: 'footerCommunity', href: '#' },
      { label: 'footerHelpCenter', href: '#' },
    ],
  },
  {
    title: 'footerCompany',
    links: [
      { label: 'footerAbout', to: '/about' },
      { label: 'footerCareers', href: '#' },
      { label: 'footerPress', href: '#' },
      { label: 'footerContact', to: '/contact' },
      { label: 'footerPrivacyPolicy', href: '#' },
    ],
  },
];

/** Placeholder social links (SPEC 2). */
const SOCIAL: readonly { label: MessageKey; icon: LucideIcon }[] = [
  { label: 'footerSocialWebsite', icon: Globe },
  { label: 'footerSocialNews', icon: Rss },
  { label: 'footerSocialCommunity', icon: MessageCircle },
  { label: 'footerSocialMail', icon: AtSign },
];

const LEGAL: readonly MessageKey[] = ['footerTerms', 'footerPrivacy', 'footerCookies'];

const linkClass =
  'rounded-sm text-[length:inherit] text-muted transition-colors outline-none hover:text-foreground focus-visible:text-foreground focus-visible:ring-2 focus-visible:ring-ring';
const iconLinkClass =
  'grid size-9 place-items-center rounded-full bg-white/5 text-muted ring-1 ring-border transition-colors outline-none hover:bg-accent/15 hover:text-fuchsia-200 focus-visible:ring-2 focus-visible:ring-ring';

function FooterAnchor({ link }: { link: FooterLink }) {
  const t = useT();
  return link.to ? (
    <Link to={link.to} className={linkClass}>
      {t(link.label)}
    </Link>
  ) : (
    <a href={link.href ?? '#'} className={linkClass}>
      {t(link.label)}
    </a>
  );
}

export function Footer() {
  const t = useT();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-border/70 bg-surface/40">
      {/* On a phone it folds into a compact block: three narrow columns, tighter spacing. */}
      <div className="mx-auto grid max-w-6xl gap-7 px-4 py-8 sm:gap-10 sm:px-6 sm:py-14 lg:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="flex flex-col gap-3 sm:gap-5">
          <Link
            to="/"
            aria-label={t('homeLinkLabel')}
            className="flex w-fit items-center gap-2.5 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <LogoMark />
            <span className="text-xl font-extrabold tracking-tight">{t('brand')}</span>
          </Link>
          <p className="max-w-sm text-sm leading-relaxed text-muted">{t('footerBlurb')}</p>
          <ul aria-label={t('footerFollow')} className="flex flex-wrap gap-2">
            {SOCIAL.map(({ label, icon: Icon }) => (
              <li key={label}>
                <a href="#" aria-label={t(label)} title={t(label)} className={iconLinkClass}>
                  <Icon aria-hidden className="size-4" />
                </a>
              </li>
            ))}
            <li>
              <a
                href={SOURCE_CODE_URL}
                target="_blank"
                rel="noreferrer noopener"
                aria-label={t('footerSourceCode')}
                title={t('footerSourceCode')}
                className={iconLinkClass}
              >
                <CodeXml aria-hidden className="size-4" />
              </a>
            </li>
          </ul>
        </div>
        <div className="grid grid-cols-3 gap-4 sm:gap-8 lg:contents">
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-labelledby={`footer-${column.title}`} className="flex min-w-0 flex-col gap-2.5 sm:gap-4">
              <h2 id={`footer-${column.title}`} className="text-sm font-semibold tracking-wide text-foreground">
                {t(column.title)}
              </h2>
              <ul className="flex flex-col gap-1.5 text-xs sm:gap-2.5 sm:text-sm">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <FooterAnchor link={link} />
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      </div>
      <div className="border-t border-border/70">
        <div className="mx-auto flex max-w-6xl flex-col-reverse items-center justify-between gap-2 px-4 py-4 text-sm sm:flex-row sm:gap-4 sm:py-6 sm:px-6">
          <p className="text-sm text-subtle">{t('footerCopyright', { year })}</p>
          <ul className="flex gap-5">
            {LEGAL.map((label) => (
              <li key={label}>
                <a href="#" className={linkClass}>
                  {t(label)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
