import { House, RotateCw, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useRouteError } from 'react-router';
import { Button } from '../components/ui/button';
import { useT } from '../lib/i18n/i18n.store';
import { useDocumentTitle } from '../lib/use-document-title';

/** Shown in place of a page that threw while rendering or loading. */
export function RouteErrorPage() {
  const t = useT();
  const error = useRouteError();
  useDocumentTitle('errorTitle');
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="flex flex-1 items-center justify-center px-4 pt-32 pb-20">
      <div role="alert" className="flex max-w-md flex-col items-center gap-5 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-rose-400/10 text-danger ring-1 ring-rose-400/30">
          <TriangleAlert aria-hidden className="size-8" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('errorTitle')}</h1>
        <p className="text-muted">{t('errorBody')}</p>
        <div className="mt-2 flex flex-wrap justify-center gap-3">
          <Button size="lg" onClick={() => window.location.reload()}>
            <RotateCw aria-hidden className="size-5" />
            {t('reload')}
          </Button>
          <Button asChild size="lg" variant="secondary">
            <Link to="/">
              <House aria-hidden className="size-5" />
              {t('backToHome')}
            </Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
