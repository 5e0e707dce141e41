import { Info } from 'lucide-react';
import { useT } from '../../lib/i18n/i18n.store';

export interface AnalysisCoverage {
  analysed: number;
  total: number;
}

/** "Analysed 412 of 530 songs": shown while part of the library still waits for analysis. */
export function AnalysisCoverageNote({ coverage }: { coverage: AnalysisCoverage }) {
  const t = useT();
  if (coverage.analysed >= coverage.total) return null;
  return (
    <p role="note" className="flex items-start gap-2 rounded-xl bg-white/[0.04] px-3 py-2 text-xs leading-relaxed text-muted ring-1 ring-border">
      <Info aria-hidden className="mt-0.5 size-3.5 shrink-0 text-fuchsia-300" />
      <span>
        <span className="font-semibold text-foreground">{t('aiAnalysedOf', { done: coverage.analysed, total: coverage.total })}</span>
        {'. '}
        {t('aiAnalysisIncompleteHint')}
      </span>
    </p>
  );
}
