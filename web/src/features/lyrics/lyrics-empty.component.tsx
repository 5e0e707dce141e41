import { LYRICS_TEXT_MAX } from '@encore/common/lyrics.contract';
import { FileText, Globe, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { useSaveLyricsText } from './lyrics.queries';
import { LyricsImport } from './lyrics-import.component';
import { LyricsOnline } from './lyrics-online.component';

interface LyricsEmptyProps {
  songId: number;
  /** Whether the caller may store lyrics by import (the server's `canEdit`). */
  canEdit: boolean;
  onTranscribe: () => void;
  transcribeBusy: boolean;
}

/** No lyrics (SPEC 2, issue 11): 'Transcribe Lyrics with AI', 'Find lyrics online' and 'Import'. */
export function LyricsEmpty({ songId, canEdit, onTranscribe, transcribeBusy }: LyricsEmptyProps) {
  const t = useT();
  const [online, setOnline] = useState(false);
  const [importing, setImporting] = useState(false);
  const save = useSaveLyricsText(songId);
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-border px-4 py-8 text-center">
      <div className="flex flex-col gap-1">
        <h3 className="text-base font-semibold">{t('lyricsEmptyTitle')}</h3>
        <p className="max-w-sm text-sm text-muted">{canEdit ? t('lyricsEmptyBody') : t('lyricsEmptyBodyOthers')}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={onTranscribe} disabled={transcribeBusy}>
          {transcribeBusy ? <Spinner /> : <Sparkles aria-hidden className="size-4" />}
          {t('lyricsTranscribe')}
        </Button>
        <Button variant="secondary" onClick={() => setOnline(true)}>
          <Globe aria-hidden className="size-4" />
          {t('lyricsFindOnline')}
        </Button>
        {canEdit ? (
          <Button variant="secondary" onClick={() => setImporting(true)}>
            <FileText aria-hidden className="size-4" />
            {t('lyricsImport')}
          </Button>
        ) : null}
      </div>
      <LyricsOnline songId={songId} open={online} onOpenChange={setOnline} />
      {canEdit ? (
        <LyricsImport
          open={importing}
          onOpenChange={setImporting}
          maxLength={LYRICS_TEXT_MAX}
          busy={save.isPending}
          onImport={(text) => save.mutate(text, { onSuccess: () => setImporting(false) })}
        />
      ) : null}
    </div>
  );
}
