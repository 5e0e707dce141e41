import type { Playlist } from '@encore/common/playlists.contract';
import { FileDown } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { saveBlob } from '../../lib/save-blob';
import { fetchPlaylistM3u8 } from './playlists.api';

/**
 * Downloads the playlist as M3U8 (signed stream links any player can open). The call needs the
 * bearer header, so it is fetched and saved rather than linked.
 */
export function ExportPlaylistButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const download = useMutation({
    mutationFn: () => fetchPlaylistM3u8(playlist.id),
    meta: { errorToast: { fallback: t('exportPlaylistFailed') } },
    onSuccess: ({ blob, fileName }) => {
      saveBlob(blob, fileName ?? `${playlist.name}.m3u8`);
      toast.success(t('exportPlaylistDone'));
    },
  });
  const busy = download.isPending;

  return (
    <Button variant="secondary" onClick={() => download.mutate()} disabled={busy}>
      {busy ? <Spinner /> : <FileDown aria-hidden className="size-4" />}
      {t('exportPlaylist')}
    </Button>
  );
}
