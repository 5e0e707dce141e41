import type { Playlist } from '@encore/common/playlists.contract';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { saveBlob } from '../../lib/save-blob';
import { fetchPlaylistM3u8 } from './playlists.api';

/**
 * Downloads the playlist as M3U8 (signed stream links any player can open). The call needs the
 * bearer header, so it is fetched and saved rather than linked.
 */
export function ExportPlaylistButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchPlaylistM3u8(playlist.id);
      saveBlob(blob, fileName ?? `${playlist.name}.m3u8`);
      toast.success(t('exportPlaylistDone'));
    } catch (error) {
      toastApiError(error, { fallback: t('exportPlaylistFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="secondary" onClick={() => void download()} disabled={busy}>
      {busy ? <Spinner /> : <FileDown aria-hidden className="size-4" />}
      {t('exportPlaylist')}
    </Button>
  );
}
