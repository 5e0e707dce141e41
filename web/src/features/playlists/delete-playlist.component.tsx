import type { Playlist } from '@encore/common/playlists.contract';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { player } from '../player/player.store';
import { playlistSource } from './playlist-playback';
import { useDeletePlaylist } from './playlists.queries';

/** Delete Playlist, behind a confirmation dialog; the songs stay in the library. */
export function DeletePlaylistButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useDeletePlaylist();

  const confirm = () => {
    remove.mutate(playlist.id, {
      onSuccess: () => {
        setOpen(false);
        if (player.getState().source === playlistSource(playlist.id)) player.close();
        toast.success(t('playlistDeleted'));
        void navigate('/playlists', { replace: true });
      },
      onError: (error) => toastApiError(error, { fallback: t('deletePlaylistFailed') }),
    });
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" />
        {t('deletePlaylist')}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
        <DialogContent closeLabel={t('close')} role="alertdialog">
          <DialogHeader>
            <DialogTitle>{t('deletePlaylistTitle')}</DialogTitle>
            <DialogDescription>{t('deletePlaylistBody', { name: playlist.name })}</DialogDescription>
          </DialogHeader>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setOpen(false)} disabled={remove.isPending}>
              {t('cancel')}
            </Button>
            <Button variant="danger" onClick={confirm} disabled={remove.isPending} className="bg-danger text-white hover:bg-danger/85">
              {remove.isPending ? <Spinner /> : <Trash2 aria-hidden className="size-4" />}
              {t('deletePlaylist')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
