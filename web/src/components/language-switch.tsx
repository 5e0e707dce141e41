import { Languages } from 'lucide-react';
import { cn } from '../lib/cn';
import type { MessageKey } from '../lib/i18n/catalogue';
import { setLanguage, useLanguage, useT, type Language } from '../lib/i18n/i18n.store';

const LANGUAGES: readonly { value: Language; label: MessageKey }[] = [
  { value: 'en', label: 'languageEnglish' },
  { value: 'he', label: 'languageHebrew' },
];

/** English or Hebrew, for the profile dialog and the profile page. */
export function LanguageSwitch({ className }: { className?: string }) {
  const t = useT();
  const language = useLanguage();
  return (
    <div className={cn('flex items-center justify-between gap-3 rounded-xl border border-border px-3 py-2.5', className)}>
      <span id="language-label" className="flex items-center gap-2 text-sm text-muted">
        <Languages aria-hidden className="size-4" />
        {t('languageLabel')}
      </span>
      <div role="group" aria-labelledby="language-label" className="flex gap-1 rounded-lg bg-background/60 p-1">
        {LANGUAGES.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            lang={value}
            aria-pressed={language === value}
            onClick={() => setLanguage(value)}
            className={cn(
              'h-8 cursor-pointer rounded-md px-3 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
              language === value ? 'bg-accent-gradient text-white' : 'text-muted hover:text-foreground',
            )}
          >
            {t(label)}
          </button>
        ))}
      </div>
    </div>
  );
}
