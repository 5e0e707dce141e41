import { TriangleAlert } from 'lucide-react';
import { useT } from '../../lib/i18n/i18n.store';

/** Where the user is (issue 37): the last transcription failed, and what to do, in their language. */
export function TranscriptionFailed() {
  const t = useT();
  return (
    <div role="alert" data-testid="lyrics-transcribe-failed" className="flex items-start gap-2.5 rounded-xl border border-danger/40 bg-danger/10 p-3 text-sm">
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-danger" />
      <div className="flex flex-col gap-0.5">
        <p className="font-semibold">{t('lyricsTranscribeFailed')}</p>
        <p className="text-muted">{t('lyricsTranscribeFailedBody')}</p>
      </div>
    </div>
  );
}
