import type { SongAnalysis } from '@encore/common/analysis.contract';
import type { SongDetail } from '@encore/common/library.contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AudioWaveform, Sparkles } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT, type Translate } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { cacheMadePlaylist } from '../../lib/playlist-cache';
import { songQueryKeys } from '../../lib/song-query-keys';
import { postMoreLikeThis } from './discovery.api';
import { EXPLAINED_STATUSES } from './use-generate-playlist';

/** While a song waits for its analysis, its page asks again this often. */
export const ANALYSIS_RECHECK_MS = 5000;

/** "120 BPM · A minor · high energy" in the user's language; the pending and failed states say so. */
export function analysisLine(analysis: SongAnalysis | null, t: Translate): string {
  if (!analysis) return t('songAnalysisPending');
  if (analysis.status === 'failed') return t('songAnalysisFailed');
  const { bpm, key, mode, energyLevel } = analysis.features;
  const energy = { low: t('songAnalysisEnergyLow'), medium: t('songAnalysisEnergyMedium'), high: t('songAnalysisEnergyHigh') }[energyLevel];
  return [formatQuantity(Math.round(bpm), 'BPM'), t(mode === 'major' ? 'songAnalysisMajor' : 'songAnalysisMinor', { key }), energy].join(' · ');
}

/**
 * The song page's sound (issue 12): the analysis line, and More like this, which makes a
 * playlist of the songs nearest to this one by their sound and opens it.
 */
export function SongSound({ song }: { song: SongDetail }) {
  const t = useT();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { analysis } = song;

  // Analysis runs in the background after upload: look again until it has answered.
  useEffect(() => {
    if (analysis) return undefined;
    const timer = setInterval(() => void client.invalidateQueries({ queryKey: songQueryKeys.detail(song.id), exact: true }), ANALYSIS_RECHECK_MS);
    return () => clearInterval(timer);
  }, [analysis, client, song.id]);

  const moreLikeThis = useMutation({
    mutationFn: () => postMoreLikeThis(song.id),
    onSuccess: async (outcome) => {
      toast.success(t('aiGenerated'));
      await cacheMadePlaylist(client, outcome.id);
      void navigate(`/playlists/${outcome.id}`);
    },
    meta: { errorToast: { fallback: t('aiGenerateFailed'), serverMessage: EXPLAINED_STATUSES } },
  });

  const line = analysisLine(analysis, t);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-border bg-surface/60 px-4 py-3">
      <p className="flex min-w-0 items-center gap-2.5 text-sm" title={analysis?.status === 'failed' ? analysis.reason : undefined}>
        <AudioWaveform aria-hidden className="size-4 shrink-0 text-fuchsia-300" />
        <span className="sr-only">{t('songAnalysisLabel')}: </span>
        <span data-testid="song-analysis" className={analysis?.status === 'analysed' ? 'font-semibold tabular-nums' : 'text-muted'}>
          {line}
        </span>
        {analysis ? null : <Spinner className="size-3.5 text-subtle" />}
      </p>
      <Button variant="secondary" size="sm" disabled={analysis?.status !== 'analysed' || moreLikeThis.isPending} onClick={() => moreLikeThis.mutate()}>
        {moreLikeThis.isPending ? <Spinner /> : <Sparkles aria-hidden className="size-4" />}
        {t('moreLikeThis')}
      </Button>
    </div>
  );
}
