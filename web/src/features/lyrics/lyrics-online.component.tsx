import type { LyricsCandidate } from '@encore/common/lyrics.contract';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { apiErrorText } from '../../lib/api-error-toast';
import { formatClockTime } from '../../lib/clock-time.format';
import { useT } from '../../lib/i18n/i18n.store';
import { useApplyCandidate, useOnlineCandidates } from './lyrics.queries';

interface LyricsOnlineProps {
  songId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Find lyrics online' (issue 11): LRCLIB's candidates with their synced/plain kind; one is applied. */
export function LyricsOnline({ songId, open, onOpenChange }: LyricsOnlineProps) {
  const t = useT();
  const candidates = useOnlineCandidates(songId, open);
  const apply = useApplyCandidate(songId);
  const list = candidates.data?.candidates ?? [];

  const choose = (candidate: LyricsCandidate) =>
    apply.mutate({ candidateId: candidate.id, ...(candidate.kind === 'plain' ? { kind: 'plain' as const } : {}) }, { onSuccess: () => onOpenChange(false) });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('close')} className="max-w-2xl">
        <DialogTitle className="text-xl font-bold">{t('lyricsOnlineTitle')}</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted">{t('lyricsOnlineBody')}</DialogDescription>
        <div className="mt-4 flex flex-col gap-3">
          {candidates.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted">
              <Spinner /> {t('lyricsOnlineSearching')}
            </p>
          ) : candidates.isError ? (
            <p role="alert" className="text-sm text-danger">
              {apiErrorText(candidates.error, { fallback: t('lyricsOnlineFailed') })}
            </p>
          ) : list.length === 0 ? (
            <p className="text-sm text-muted">{t('lyricsOnlineNone')}</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={t('lyricsOnlineTitle')}>
              {list.map((candidate) => (
                <li
                  key={candidate.id}
                  data-testid="lyrics-candidate"
                  className="flex flex-col gap-2 rounded-xl border border-border bg-surface-raised/60 p-3 sm:flex-row sm:items-start"
                >
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-semibold">
                      <span dir="auto">{candidate.trackName}</span>
                      <Badge className={candidate.kind === 'synced' ? 'bg-emerald-400/15 text-emerald-300' : undefined}>
                        {candidate.kind === 'synced' ? t('lyricsOnlineSynced') : t('lyricsOnlinePlain')}
                      </Badge>
                    </p>
                    <p dir="auto" className="text-sm text-muted">
                      {[candidate.artistName, candidate.albumName, candidate.durationSeconds ? formatClockTime(candidate.durationSeconds) : null]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                    <p dir="auto" className="mt-1 line-clamp-3 text-sm whitespace-pre-line text-foreground/80">
                      {candidate.preview}
                    </p>
                  </div>
                  <Button size="sm" disabled={apply.isPending || candidate.kind === 'instrumental'} onClick={() => choose(candidate)}>
                    {apply.isPending && apply.variables?.candidateId === candidate.id ? <Spinner /> : null}
                    {t('lyricsOnlineApply')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
