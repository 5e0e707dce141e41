import { ArrowLeft, CheckCircle2, CircleAlert, FileAudio, Sparkles, UploadCloud, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { Spinner } from '../../components/ui/spinner';
import { useClientConfig } from '../../lib/client-config.query';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/file-size.format';
import { useT } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DEFAULT_MAX_UPLOAD_MB, UPLOAD_ACCEPT } from './upload-rules';
import { useUploadQueue, type UploadItem } from './use-upload-queue';
import { PageGlow } from '../../components/page-glow';

/** The upload page (SPEC 2, 4, 5): drop or pick several songs, each with its own progress and result. */
export function UploadPage() {
  const t = useT();
  useDocumentTitle('uploadTitle');
  const config = useClientConfig();
  const maxMb = config.data?.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB;
  const queue = useUploadQueue(maxMb * 1024 * 1024);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const locked = queue.phase === 'uploading';

  const take = (files: FileList | null) => {
    queue.addFiles(files ? Array.from(files) : []);
    // The same file can be picked again after it was removed or the selection was cleared.
    if (input.current) input.current.value = '';
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!locked) take(event.dataTransfer.files);
  };

  return (
    <div className="relative isolate flex flex-1 justify-center px-4 pt-28 pb-16 sm:pt-32">
      <PageGlow className="top-16 h-[420px] max-w-3xl" />
      <div className="flex w-full max-w-2xl flex-col gap-6">
        <header className="flex flex-col items-center gap-3 text-center">
          <span className="grid size-14 place-items-center rounded-2xl bg-accent/10 text-fuchsia-300 ring-1 ring-accent/30">
            <Sparkles aria-hidden className="size-7" />
          </span>
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('uploadTitle')}</h1>
          <p className="max-w-lg text-muted">{t('uploadTagline')}</p>
        </header>

        <Card className="flex flex-col gap-5 p-5 sm:p-7">
          <input
            ref={input}
            type="file"
            multiple
            accept={UPLOAD_ACCEPT}
            aria-label={t('uploadChooseFiles')}
            tabIndex={-1}
            className="sr-only"
            disabled={locked}
            onChange={(event) => take(event.target.files)}
          />
          <button
            type="button"
            disabled={locked}
            onClick={() => input.current?.click()}
            onDragEnter={(event) => {
              event.preventDefault();
              if (!locked) setDragging(true);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDragLeave={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
            }}
            onDrop={onDrop}
            className={cn(
              'group flex cursor-pointer flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-border bg-background/40 px-6 py-10 text-center transition-colors outline-none sm:py-12',
              'hover:border-accent/60 hover:bg-accent/5 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 disabled:cursor-not-allowed disabled:opacity-60',
              dragging && 'border-accent bg-accent/10',
            )}
          >
            <span className="grid size-14 place-items-center rounded-full bg-accent-gradient text-white shadow-lg shadow-fuchsia-900/40 transition-transform group-hover:scale-105">
              <UploadCloud aria-hidden className="size-7" />
            </span>
            <span className="text-base font-semibold">{dragging ? t('uploadDropNow') : t('uploadDropHere')}</span>
            <span className="text-sm text-muted">{t('uploadOrBrowse')}</span>
            <span className="text-xs text-subtle">{t('uploadLimits', { mb: maxMb })}</span>
          </button>

          {queue.items.length > 0 ? (
            <ul aria-label={t('uploadSelectedFiles')} className="flex flex-col gap-2">
              {queue.items.map((item) => (
                <UploadRow
                  key={item.id}
                  item={item}
                  waiting={locked && item.status === 'pending'}
                  removable={!locked && item.status !== 'done'}
                  onRemove={() => queue.remove(item.id)}
                />
              ))}
            </ul>
          ) : null}

          <Button size="lg" disabled={!queue.canUpload} onClick={() => void queue.uploadAll()} className="w-full">
            {queue.phase === 'uploading' ? (
              <>
                <Spinner />
                {t('uploadingPercent', { percent: formatQuantity(queue.overall, '%') })}
              </>
            ) : queue.phase === 'complete' ? (
              <>
                <CheckCircle2 aria-hidden className="size-5" />
                {t('uploadComplete')}
              </>
            ) : (
              <>
                <UploadCloud aria-hidden className="size-5" />
                {t('uploadButton')}
              </>
            )}
          </Button>
        </Card>

        <Button asChild variant="ghost" className="self-center">
          <Link to="/">
            <ArrowLeft aria-hidden className="size-4 rtl:rotate-180" />
            {t('backToHome')}
          </Link>
        </Button>
      </div>
    </div>
  );
}

interface UploadRowProps {
  item: UploadItem;
  /** Queued behind the file uploading now. */
  waiting: boolean;
  removable: boolean;
  onRemove: () => void;
}

function UploadRow({ item, waiting, removable, onRemove }: UploadRowProps) {
  const t = useT();
  const label = `${item.file.name}`;
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-border bg-surface-raised/60 px-3.5 py-3">
      <div className="flex items-center gap-3">
        <span
          className={cn(
            'grid size-9 shrink-0 place-items-center rounded-lg',
            item.status === 'done'
              ? 'bg-emerald-400/10 text-success'
              : item.status === 'failed'
                ? 'bg-rose-400/10 text-danger'
                : 'bg-accent/10 text-fuchsia-300',
          )}
        >
          {item.status === 'done' ? (
            <CheckCircle2 aria-hidden className="size-4.5" />
          ) : item.status === 'failed' ? (
            <CircleAlert aria-hidden className="size-4.5" />
          ) : (
            <FileAudio aria-hidden className="size-4.5" />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <p dir="auto" className="truncate text-sm font-medium rtl:text-right" title={label}>
            {label}
          </p>
          <p className="text-xs text-muted tabular-nums">
            <bdi>{formatFileSize(item.file.size)}</bdi>
            {item.status === 'uploading' ? ` · ${formatQuantity(item.progress, '%')}` : waiting ? ` · ${t('uploadWaiting')}` : null}
          </p>
        </div>
        {removable ? (
          <button
            type="button"
            onClick={onRemove}
            aria-label={t('uploadRemoveFile', { name: item.file.name })}
            className="grid size-8 shrink-0 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden className="size-4" />
          </button>
        ) : null}
      </div>
      {item.status !== 'pending' ? (
        <Progress
          value={item.status === 'failed' ? 100 : item.progress}
          aria-label={t('uploadProgressLabel', { name: item.file.name })}
          indicatorClassName={cn(item.status === 'failed' && 'bg-danger bg-none', item.status === 'done' && 'bg-success bg-none')}
        />
      ) : null}
      <p aria-live="polite" className={cn('text-xs empty:hidden', item.status === 'failed' ? 'text-danger' : 'text-success')}>
        {item.status === 'done' ? t('uploadFileDone') : item.status === 'failed' ? item.error : null}
      </p>
    </li>
  );
}
