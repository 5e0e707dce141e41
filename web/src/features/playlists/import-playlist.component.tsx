import { PLAYLIST_IMPORT_MAX_BYTES, type Playlist, type PlaylistImportReport } from '@encore/common/playlists.contract';
import { FileUp } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT, useTCount, type TranslateCount } from '../../lib/i18n/i18n.store';
import { useImportPlaylist } from './playlists.queries';

/**
 * Import M3U8, the pair of Export: the user picks an .m3u or .m3u8 file, the server appends the
 * songs its entries name, and a toast says how many were added and how many were not found.
 */
export function ImportPlaylistButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const tCount = useTCount();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const importFile = useImportPlaylist(playlist.id);
  const busy = reading || importFile.isPending;

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be picked again after the playlist changed.
    event.target.value = '';
    if (!file) return;
    if (file.size > PLAYLIST_IMPORT_MAX_BYTES) {
      toast.error(t('importPlaylistTooLarge'));
      return;
    }
    setReading(true);
    const text = await readPlaylistFile(file).finally(() => setReading(false));
    // Requests may not carry NUL characters: a file holding one is binary, not a playlist.
    if (text === undefined || text.includes('\u0000')) {
      toast.error(t('importPlaylistNotM3u'));
      return;
    }
    importFile.mutate(text, {
      onSuccess: ({ report }) => (report.added > 0 ? toast.success : toast.warning)(importSummary(report, tCount)),
    });
  }

  return (
    <>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept=".m3u,.m3u8,audio/x-mpegurl,audio/mpegurl,application/vnd.apple.mpegurl"
        aria-label={t('importPlaylistFile')}
        className="sr-only"
        tabIndex={-1}
        onChange={(event) => void onFile(event)}
      />
      <Button variant="secondary" onClick={() => input.current?.click()} disabled={busy} aria-controls={inputId}>
        {busy ? <Spinner /> : <FileUp aria-hidden className="size-4" />}
        {t('importPlaylist')}
      </Button>
    </>
  );
}

/** "Added 12 songs · 3 not found": the parts with a count, in the user's language. */
export function importSummary(report: PlaylistImportReport, tCount: TranslateCount): string {
  const parts = [tCount('importPlaylistAdded', report.added)];
  if (report.alreadyThere > 0) parts.push(tCount('importPlaylistAlreadyThere', report.alreadyThere));
  if (report.notFound.length > 0) parts.push(tCount('importPlaylistNotFound', report.notFound.length));
  return parts.join(' · ');
}

/**
 * The file's text: UTF-8 (an .m3u8 always is), else Windows-1252, what players write an .m3u
 * in; undefined when it cannot be read.
 */
async function readPlaylistFile(file: File): Promise<string | undefined> {
  const bytes = await new Promise<ArrayBuffer | undefined>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result instanceof ArrayBuffer ? reader.result : undefined);
    reader.onerror = () => resolve(undefined);
    reader.readAsArrayBuffer(file);
  });
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
