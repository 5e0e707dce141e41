import type { MusicFoldersResponse, ScanStatus } from '@encore/common/music-folders.contract';
import { FolderSync, FolderX, RefreshCw, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Progress } from '../../components/ui/progress';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useLanguage, useT, useTCount, type Language, type Translate, type TranslateCount } from '../../lib/i18n/i18n.store';
import { Trans } from '../../lib/i18n/trans.component';
import { useMusicFolders, useStartScan } from './music-folders.queries';
import { formatTimeAgo } from './relative-time.format';
import { ScanReportButton } from './scan-report-dialog.component';

/**
 * The music folders' bar on the All Music page (issue 27): the scan's progress while one runs,
 * otherwise the folders' songs and when they were last scanned; "Scan now" for the instance's
 * owner, folders that cannot be read, a failed scan's reason and the scan report. Nothing
 * without music folders (or on a server that has none to tell of).
 */
export function MusicFoldersPanel() {
  const t = useT();
  const folders = useMusicFolders();
  const data = folders.data;
  if (!data || data.folders.length === 0) return null;
  const unavailable = data.folders.filter((folder) => !folder.available);
  const running = data.scan.state === 'running';
  return (
    <section aria-label={t('musicFoldersLabel')} className="mt-6 flex flex-col gap-3 rounded-2xl border border-border bg-surface/50 px-4 py-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent/10 text-fuchsia-300 ring-1 ring-accent/30">
          {running ? <RefreshCw aria-hidden className="size-4 animate-spin [animation-duration:2s]" /> : <FolderSync aria-hidden className="size-4" />}
        </span>
        <div className="flex min-w-[12rem] flex-1 flex-col gap-1.5">{running ? <ScanProgress scan={data.scan} /> : <FoldersSummary data={data} />}</div>
        <div className="flex flex-wrap items-center gap-2">
          {data.problemCount > 0 ? <ScanReportButton problems={data.problems} problemCount={data.problemCount} /> : null}
          {data.canScan ? <ScanNowButton running={running} /> : null}
        </div>
      </div>
      {data.scan.state === 'failed' ? (
        <p role="alert" className="flex items-start gap-2 rounded-xl bg-danger/10 px-3 py-2 text-sm text-danger">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            {/* The server's words keep their own direction inside the sentence. */}
            {data.scan.error ? (
              <Trans k="musicFoldersLastScanFailed" values={{ error: <bdi>{data.scan.error}</bdi> }} />
            ) : (
              t('musicFoldersLastScanFailedNoReason')
            )}
          </span>
        </p>
      ) : null}
      {unavailable.length > 0 ? (
        <ul className="flex flex-col gap-1.5">
          {unavailable.map((folder) => (
            <li key={folder.id} className="flex items-start gap-2 rounded-xl border border-amber-400/30 bg-amber-400/5 px-3 py-2 text-sm text-amber-200">
              <FolderX aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span className="min-w-0 break-all">
                {/* A path reads left to right in both languages ("/mnt/nas", not "mnt/nas/"). */}
                <Trans k="musicFoldersUnavailable" values={{ path: <bdi dir="ltr">{folder.path}</bdi> }} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** "Scanning: 12,400 of 48,000 files" and its bar; before the walk has counted the files, just "Scanning…". */
function ScanProgress({ scan }: { scan: ScanStatus }) {
  const t = useT();
  const count = useTCount();
  const language = useLanguage();
  if (scan.total <= 0) {
    return (
      <>
        <p className="text-sm font-medium">{t('musicFoldersScanning')}</p>
        <Progress value={0} getValueLabel={() => t('musicFoldersScanning')} aria-label={t('musicFoldersProgressLabel')} className="h-1" />
      </>
    );
  }
  const text = progressText(scan, count, language);
  return (
    <>
      <p className="text-sm font-medium tabular-nums">{text}</p>
      <Progress
        value={(Math.min(scan.done, scan.total) / scan.total) * 100}
        getValueLabel={() => text}
        aria-label={t('musicFoldersProgressLabel')}
        className="h-1"
      />
    </>
  );
}

function progressText(scan: Pick<ScanStatus, 'done' | 'total'>, count: TranslateCount, language: Language): string {
  // The count message fills {count} (the total) in; {done} is left for here.
  return count('musicFoldersScanProgress', scan.total).replace('{done}', scan.done.toLocaleString(language));
}

/** "Music folders: 1,234 songs · last scanned 5 minutes ago". */
function FoldersSummary({ data }: { data: MusicFoldersResponse }) {
  const t = useT();
  const count = useTCount();
  const now = useNow(30_000);
  const language = useLanguage();
  const songs = data.folders.reduce((sum, folder) => sum + folder.songs, 0);
  return (
    <p className="text-sm">
      <span className="font-medium">{count('musicFoldersSongs', songs)}</span>
      <span className="text-muted">
        {' · '}
        {lastScannedText(data.scan, t, language, now)}
      </span>
    </p>
  );
}

function lastScannedText(scan: ScanStatus, t: Translate, language: Language, now: Date): string {
  const finished = scan.finishedAt ?? (scan.state === 'idle' ? null : scan.startedAt);
  if (!finished) return t('musicFoldersNeverScanned');
  const when = formatTimeAgo(finished, language, now);
  return when === null ? t('musicFoldersScannedJustNow') : t('musicFoldersLastScanned', { when });
}

/** The time now, renewed every `intervalMs`, so "5 minutes ago" keeps true while the page stays open. */
function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function ScanNowButton({ running }: { running: boolean }) {
  const t = useT();
  const scan = useStartScan();
  return (
    <Button variant="secondary" size="sm" disabled={running || scan.isPending} onClick={() => scan.mutate()}>
      {scan.isPending ? <Spinner /> : <RefreshCw aria-hidden className={cn('size-4', running && 'animate-spin')} />}
      {t('musicFoldersScanNow')}
    </Button>
  );
}
