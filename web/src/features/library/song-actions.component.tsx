import type { Song } from '@encore/common/library.contract';
import { Download, Share2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { AddToPlaylistButton } from '../playlists/add-to-playlist.component';
import { ShareSongDialog } from '../sharing/share-song-dialog.component';
import { useDeleteSong } from './library.queries';
import { LikeButton } from './like-button.component';
import { downloadSong } from './song-download';

/** The song page's actions: like, share by e-mail, download and, for the uploader, delete. */
export function SongActions({ song }: { song: Song }) {
  const t = useT();
  const [shareOpen, setShareOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadSong(song);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2.5">
      <LikeButton song={song} variant="large" />
      <Button variant="secondary" onClick={() => setShareOpen(true)}>
        <Share2 aria-hidden className="size-4" />
        {t('shareButton')}
      </Button>
      <Button variant="secondary" onClick={() => void download()} disabled={downloading}>
        {downloading ? <Spinner /> : <Download aria-hidden className="size-4" />}
        {t('downloadButton')}
      </Button>
      <AddToPlaylistButton song={song} />
      {song.isOwner ? <DeleteSongButton song={song} /> : null}
      <ShareSongDialog song={song} open={shareOpen} onOpenChange={setShareOpen} />
    </div>
  );
}

function DeleteSongButton({ song }: { song: Song }) {
  const t = useT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useDeleteSong();

  const confirm = () => {
    remove.mutate(song.id, {
      onSuccess: () => {
        setOpen(false);
        toast.success(t('deleteSongDone', { title: song.displayName }));
        void navigate('/music', { replace: true });
      },
      onError: (error) => toastApiError(error, { fallback: t('deleteSongFailed') }),
    });
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" />
        {t('deleteSongButton')}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
        <DialogContent closeLabel={t('close')} role="alertdialog">
          <DialogHeader>
            <DialogTitle>{t('deleteSongTitle')}</DialogTitle>
            <DialogDescription>{t('deleteSongBody', { title: song.displayName })}</DialogDescription>
          </DialogHeader>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setOpen(false)} disabled={remove.isPending}>
              {t('cancel')}
            </Button>
            <Button variant="danger" onClick={confirm} disabled={remove.isPending} className="bg-danger text-white hover:bg-danger/85">
              {remove.isPending ? <Spinner /> : <Trash2 aria-hidden className="size-4" />}
              {t('deleteSongConfirm')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
