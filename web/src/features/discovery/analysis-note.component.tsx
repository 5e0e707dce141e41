import { incompleteAnalysisNote } from '@encore/common/discovery.contract';
import { Info } from 'lucide-react';
import { useT } from '../../lib/i18n/i18n.store';

/**
 * The counts in the server's note on an answer from an incomplete analysis (the contract's
 * `incompleteAnalysisNote`), so the page can say it in the user's language; null for other notes.
 */
export function incompleteAnalysisCounts(note: string): { analysed: number; total: number } | null {
  const match = /(\d+)\D+(\d+)/.exec(note);
  if (!match) return null;
  const analysed = Number(match[1]);
  const total = Number(match[2]);
  return incompleteAnalysisNote(analysed, total) === note ? { analysed, total } : null;
}

/** The server's note on an answer: "Analysed 412 of 530 songs" and what that means, or the note as it came. */
export function AnalysisNote({ note }: { note: string }) {
  const t = useT();
  const counts = incompleteAnalysisCounts(note);
  return (
    <p role="note" className="flex items-start gap-2 rounded-xl bg-white/[0.04] px-3 py-2 text-xs leading-relaxed text-muted ring-1 ring-border">
      <Info aria-hidden className="mt-0.5 size-3.5 shrink-0 text-fuchsia-300" />
      {counts ? (
        <span>
          <span className="font-semibold text-foreground">{t('aiAnalysedOf', { done: counts.analysed, total: counts.total })}</span>
          {'. '}
          {t('aiAnalysisIncompleteHint')}
        </span>
      ) : (
        <span dir="auto">{note}</span>
      )}
    </p>
  );
}
