import { useQuery } from '@tanstack/react-query';
import { AudioWaveform } from 'lucide-react';
import { Progress } from '../../components/ui/progress';
import { useT } from '../../lib/i18n/i18n.store';
import { fetchAnalysisProgress } from './discovery.api';

/** While part of the library waits for analysis, the page asks again this often. */
export const ANALYSIS_PROGRESS_POLL_MS = 5000;

export const analysisProgressQueryKey = ['ai', 'analysis-progress'] as const;

/**
 * "Analysed 412 of 530 songs" above the generator while the background analysis is not done,
 * and "· 143 could not be analysed" while some songs failed: answers come from the analysed
 * songs only, and the user should know. Nothing once every song is analysed.
 */
export function AnalysisProgressLine() {
  const t = useT();
  const progress = useQuery({
    queryKey: analysisProgressQueryKey,
    queryFn: ({ signal }) => fetchAnalysisProgress(signal),
    refetchInterval: (query) => (query.state.data && query.state.data.pending === 0 ? false : ANALYSIS_PROGRESS_POLL_MS),
  });
  const data = progress.data;
  if (!data || data.total === 0 || (data.pending === 0 && data.failed === 0)) return null;
  const analysed = t('aiAnalysedOf', { done: data.analysed, total: data.total });
  const label = data.failed > 0 ? `${analysed} · ${t('aiAnalysisFailedCount', { count: data.failed })}` : analysed;
  return (
    <div role="status" className="flex flex-col gap-2 rounded-2xl border border-border bg-surface/60 px-4 py-3">
      <p className="flex items-center gap-2 text-sm">
        <AudioWaveform aria-hidden className="size-4 shrink-0 text-fuchsia-300" />
        <span className="font-semibold tabular-nums">{label}</span>
      </p>
      {/* Done is analysed or failed: a failed song is not waiting for anything. */}
      <Progress value={((data.analysed + data.failed) / data.total) * 100} aria-label={label} className="h-1" />
      {data.pending > 0 && <p className="text-xs text-muted">{t('aiAnalysisIncompleteHint')}</p>}
    </div>
  );
}
