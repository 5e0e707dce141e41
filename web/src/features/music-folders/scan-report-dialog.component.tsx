import type { ScanProblem } from '@encore/common/music-folders.contract';
import { FileWarning } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../components/ui/dialog';
import { useLanguage, useT, useTCount } from '../../lib/i18n/i18n.store';

/**
 * "Scan report (N)": a button opening the list of files the scans could not use (unreadable,
 * truncated, not audio), each with its folder and the server's reason. The server sends the
 * first 500; the dialog says so when there are more.
 */
export function ScanReportButton({ problems, problemCount }: { problems: readonly ScanProblem[]; problemCount: number }) {
  const t = useT();
  const count = useTCount();
  const language = useLanguage();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* The trigger gets the focus back when the dialog closes. */}
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm">
          <FileWarning aria-hidden className="size-4 text-amber-300" />
          {count('musicFoldersReportButton', problemCount)}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t('close')} className="max-w-2xl">
        <div className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t('musicFoldersReportTitle')}</DialogTitle>
            <DialogDescription>{t('musicFoldersReportDescription')}</DialogDescription>
          </DialogHeader>
          {problemCount > problems.length ? (
            <p className="text-xs text-subtle">
              {t('musicFoldersReportFirst', { shown: problems.length.toLocaleString(language), total: problemCount.toLocaleString(language) })}
            </p>
          ) : null}
          <ul aria-label={t('musicFoldersReportTitle')} className="-mx-1 flex max-h-[60vh] flex-col gap-1.5 overflow-y-auto px-1">
            {problems.map((problem, index) => (
              <li key={`${problem.folder}\u0000${problem.path}\u0000${index}`} className="rounded-xl bg-white/[0.04] p-3 text-sm">
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                  <dt className="text-xs text-subtle">{t('musicFoldersReportFile')}</dt>
                  <dd className="min-w-0 font-mono text-xs break-all text-foreground">
                    {/* A path reads left to right in both languages; it sits at the line's start. */}
                    {problem.path ? <bdi dir="ltr">{problem.path}</bdi> : t('musicFoldersReportFolderItself')}
                  </dd>
                  <dt className="text-xs text-subtle">{t('musicFoldersReportFolder')}</dt>
                  <dd className="min-w-0 font-mono text-xs break-all text-muted">
                    <bdi dir="ltr">{problem.folder}</bdi>
                  </dd>
                  <dt className="text-xs text-subtle">{t('musicFoldersReportReason')}</dt>
                  <dd dir="auto" className="min-w-0 text-amber-200">
                    {problem.reason}
                  </dd>
                </dl>
              </li>
            ))}
          </ul>
        </div>
      </DialogContent>
    </Dialog>
  );
}
