import { FolderSync, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { formatMessage, useLanguage, useT, useTCount } from '../../lib/i18n/i18n.store';
import { formatCount, timeAgo } from './admin-format';
import { AdminSection, SectionState } from './admin-section.component';
import { useAdminMusicFolders, useScanNow } from './admin.queries';

/** The music folders' scan: how it stands, and Scan now. */
export function MusicFoldersStatus() {
  const t = useT();
  const tCount = useTCount();
  const language = useLanguage();
  const folders = useAdminMusicFolders();
  const scan = useScanNow();
  const data = folders.data;
  const running = data?.scan.state === 'running';
  const action = data?.configured ? (
    <Button size="sm" variant="secondary" disabled={running || scan.isPending} onClick={() => scan.mutate(undefined)}>
      {running || scan.isPending ? <Spinner /> : <RefreshCw aria-hidden className="size-4" />}
      {t('adminScanNow')}
    </Button>
  ) : null;
  const n = (value: number) => formatCount(value, language);
  return (
    <AdminSection id="admin-music-folders" icon={<FolderSync aria-hidden />} title={t('adminFoldersHeading')} action={action}>
      {folders.isPending ? (
        <Spinner />
      ) : !data ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : !data.configured ? (
        <SectionState>{t('adminFoldersNone')}</SectionState>
      ) : (
        <div className="flex flex-col gap-3 text-sm">
          <ul className="flex flex-col gap-1">
            {data.folders.map((folder) => (
              <li key={folder.id} className="flex flex-wrap items-baseline gap-x-2">
                <code className="rounded bg-white/5 px-1.5 py-0.5 text-xs" dir="ltr">
                  {folder.path}
                </code>
                <span className="text-muted">{tCount('adminFolderSongs', folder.songs)}</span>
                {folder.available ? null : <span className="text-danger">{t('adminFolderUnavailable')}</span>}
              </li>
            ))}
          </ul>
          <p data-testid="admin-scan-status" className="text-muted">
            {running
              ? formatMessage(tCount('adminScanRunning', data.scan.total), { done: n(data.scan.done) })
              : data.scan.state === 'failed' && data.scan.error
                ? t('adminScanError', { error: data.scan.error })
                : data.scan.finishedAt
                  ? t('adminScanDone', {
                      when: timeAgo(data.scan.finishedAt, language) ?? t('adminJustNowInline'),
                      added: n(data.scan.added),
                      updated: n(data.scan.updated),
                      missing: n(data.scan.missing),
                      failed: n(data.scan.failed),
                    })
                  : t('adminScanNever')}
          </p>
        </div>
      )}
    </AdminSection>
  );
}
