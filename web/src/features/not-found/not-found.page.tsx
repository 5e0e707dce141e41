import { House, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PageGlow } from '../../components/page-glow';

export function NotFoundPage() {
  const t = useT();
  useDocumentTitle('notFoundTitle');
  return (
    <div className="relative isolate flex flex-1 items-center justify-center px-4 pt-32 pb-20">
      <PageGlow className="top-24 h-[360px] max-w-2xl" />
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-white/5 text-fuchsia-300 ring-1 ring-border">
          <SearchX aria-hidden className="size-8" />
        </span>
        <p className="text-gradient text-7xl font-extrabold tracking-tight sm:text-8xl">{t('notFoundCode')}</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('notFoundTitle')}</h1>
        <p className="text-muted">{t('notFoundBody')}</p>
        <Button asChild size="lg" className="mt-2">
          <Link to="/">
            <House aria-hidden className="size-5" />
            {t('backToHome')}
          </Link>
        </Button>
      </div>
    </div>
  );
}
