import type { Song } from '@encore/common/library.contract';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { saveBlob } from '../../lib/save-blob';
import type { LyricsExportFormat } from '@encore/common/lyrics.contract';
import { downloadLyrics, LYRICS_EXPORT_FORMATS } from './lyrics.api';

/** Export (issue 11): LRC, enhanced LRC, SRT or plain text, named by the server. */
export function LyricsExport({ song }: { song: Song }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const exportAs = async (format: LyricsExportFormat) => {
    setBusy(true);
    try {
      const { blob, fileName } = await downloadLyrics(song.id, format);
      saveBlob(blob, fileName ?? `${song.displayName}.${format === 'elrc' ? 'lrc' : format}`);
    } catch (error) {
      toastApiError(error, { fallback: t('lyricsExportFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="secondary" size="sm" disabled={busy}>
          {busy ? <Spinner /> : <Download aria-hidden className="size-4" />}
          {t('lyricsExport')}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {LYRICS_EXPORT_FORMATS.map((format) => (
          <DropdownMenuItem key={format} onSelect={() => void exportAs(format)}>
            {t(`lyricsExport_${format}`)}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
