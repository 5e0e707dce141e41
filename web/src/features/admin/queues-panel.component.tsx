import type { QueuedJob } from '@encore/common/admin.contract';
import { ListChecks, RotateCcw, X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useLanguage, useT, type Translate } from '../../lib/i18n/i18n.store';
import { formatCount, timeAgo } from './admin-format';
import { AdminSection, SectionState } from './admin-section.component';
import { useJobActions, useQueues } from './admin.queries';
import { jobLabelKey } from './job-names';

const STATE_KEYS = { waiting: 'adminJobStateWaiting', running: 'adminJobStateRunning', failed: 'adminJobStateFailed' } as const;

/** A job kind by its label in the reader's language; its server name (left to right, in a mono font) when it has none. */
function JobName({ queue, t }: { queue: string; t: Translate }) {
  const key = jobLabelKey(queue);
  return key ? (
    <span className="text-sm" title={queue}>
      {t(key)}
    </span>
  ) : (
    <span className="font-mono text-xs" dir="ltr">
      {queue}
    </span>
  );
}

/** The job queues: waiting, running and failed per kind; the jobs themselves with retry (failed) and cancel (waiting, running). */
export function QueuesPanel() {
  const t = useT();
  const language = useLanguage();
  const queues = useQueues();
  const refresh = (
    <Button size="sm" variant="ghost" onClick={() => void queues.refetch()} disabled={queues.isFetching}>
      {queues.isFetching ? <Spinner /> : <RotateCcw aria-hidden className="size-4" />}
      {t('adminRefresh')}
    </Button>
  );
  return (
    <AdminSection id="admin-queues" icon={<ListChecks aria-hidden />} title={t('adminQueuesHeading')} action={refresh}>
      {queues.isPending ? (
        <Spinner />
      ) : queues.isError ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : (
        <>
          <div className="-mx-2 overflow-x-auto">
            <table className="w-full border-separate sm:min-w-[420px] border-spacing-0 text-sm">
              <thead>
                <tr className="text-xs tracking-wide text-muted uppercase">
                  <th className="px-2 pb-2 text-start font-medium">{t('adminQueueName')}</th>
                  <th className="px-2 pb-2 text-end font-medium">{t('adminQueueWaiting')}</th>
                  <th className="px-2 pb-2 text-end font-medium">{t('adminQueueRunning')}</th>
                  <th className="px-2 pb-2 text-end font-medium">{t('adminQueueFailed')}</th>
                </tr>
              </thead>
              <tbody>
                {queues.data.queues.map((queue) => (
                  <tr key={queue.name} data-testid="admin-queue">
                    <td className="border-t border-border px-2 py-2">
                      <JobName queue={queue.name} t={t} />
                    </td>
                    <td className="border-t border-border px-2 py-2 text-end tabular-nums">{formatCount(queue.waiting, language)}</td>
                    <td className="border-t border-border px-2 py-2 text-end tabular-nums">{formatCount(queue.running, language)}</td>
                    <td className={cn('border-t border-border px-2 py-2 text-end tabular-nums', queue.failed > 0 && 'font-semibold text-danger')}>
                      {formatCount(queue.failed, language)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {queues.data.jobs.length === 0 ? (
            <SectionState>{t('adminJobsEmpty')}</SectionState>
          ) : (
            <ul className="flex flex-col divide-y divide-border">
              {queues.data.jobs.map((job) => (
                <JobRow key={job.id} job={job} />
              ))}
            </ul>
          )}
        </>
      )}
    </AdminSection>
  );
}

function JobRow({ job }: { job: QueuedJob }) {
  const t = useT();
  const language = useLanguage();
  const { retry, cancel } = useJobActions();
  const when = timeAgo(job.endedAt ?? job.createdAt, language) ?? t('adminJustNow');
  return (
    <li data-testid="admin-job" className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
      <span className="flex min-w-0 flex-col">
        <span className="flex items-center gap-2">
          <span className={cn('text-xs font-semibold', job.state === 'failed' ? 'text-danger' : job.state === 'running' ? 'text-emerald-300' : 'text-muted')}>
            {t(STATE_KEYS[job.state])}
          </span>
          <JobName queue={job.queue} t={t} />
          <span className="text-xs text-muted">
            {when} · {t('adminJobAttempts', { count: job.attempts })}
          </span>
        </span>
        {job.error ? (
          <span className="truncate text-xs text-muted" dir="ltr" title={job.error}>
            {job.error}
          </span>
        ) : null}
      </span>
      {job.state === 'failed' ? (
        <Button size="sm" variant="secondary" disabled={retry.isPending} onClick={() => retry.mutate({ queue: job.queue, id: job.id })}>
          <RotateCcw aria-hidden className="size-4" />
          {t('adminJobRetry')}
        </Button>
      ) : (
        <Button size="sm" variant="ghost" disabled={cancel.isPending} onClick={() => cancel.mutate({ queue: job.queue, id: job.id })}>
          <X aria-hidden className="size-4" />
          {t('adminJobCancel')}
        </Button>
      )}
    </li>
  );
}
