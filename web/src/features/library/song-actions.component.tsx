import type { SongDetail, SongListEntry } from '@encore/common/library.contract';
import { Download, Share2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDeleteButton } from '../../components/confirm-delete-button';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import type { ComponentType } from 'react';
import { useDeleteSong } from './library.queries';
import { LikeButton } from './like-button.component';
import { downloadSong } from './song-download';

/**
 * What other features add to the song page (playlists' Add to Playlist, sharing's dialog,
 * discovery's sound line with More like this).
 * The library does not import other features: the page composition (web/src/pages) passes them.
 */
export interface SongPageAddOns {
  AddToPlaylist: ComponentType<{ song: SongListEntry }>;
  ShareDialog: ComponentType<{ song: SongListEntry; open: boolean; onOpenChange: (open: boolean) => void }>;
  SongSound: ComponentType<{ song: SongDetail }>;
  /** The lyrics feature's panel (SPEC 2: lyrics panel with karaoke). */
  LyricsPanel: ComponentType<{ song: SongDetail }>;
}

/** The song page's actions: like, share by e-mail, download and, for the uploader, delete. */
export function SongActions({ song, addOns }: { song: SongListEntry; addOns: SongPageAddOns }) {
  const { AddToPlaylist, ShareDialog } = addOns;
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
    // Delete stands apart from the everyday actions: at the far end, past a divider on a phone.
    <div className="flex flex-wrap items-center gap-2.5">
      <LikeButton song={song} variant="large" />
      <div className="grid min-w-0 flex-1 grid-cols-2 gap-2.5 sm:flex sm:flex-none sm:flex-wrap [&>*:last-child]:col-span-2">
        <Button variant="secondary" onClick={() => setShareOpen(true)}>
          <Share2 aria-hidden className="size-4" />
          {t('shareButton')}
        </Button>
        <Button variant="secondary" onClick={() => void download()} disabled={downloading}>
          {downloading ? <Spinner /> : <Download aria-hidden className="size-4" />}
          {t('downloadButton')}
        </Button>
        <AddToPlaylist song={song} />
      </div>
      {song.isOwner ? (
        <div className="flex w-full justify-end border-t border-border pt-3 sm:ms-auto sm:w-auto sm:border-0 sm:pt-0">
          <DeleteSongButton song={song} />
        </div>
      ) : null}
      <ShareDialog song={song} open={shareOpen} onOpenChange={setShareOpen} />
    </div>
  );
}

function DeleteSongButton({ song }: { song: SongListEntry }) {
  const t = useT();
  const navigate = useNavigate();
  const remove = useDeleteSong();

  const confirm = (close: () => void) => {
    remove.mutate(song.id, {
      onSuccess: () => {
        close();
        toast.success(t('deleteSongDone', { title: song.displayName }));
        void navigate('/music', { replace: true });
      },
    });
  };

  return (
    <ConfirmDeleteButton
      label={t('deleteSongButton')}
      title={t('deleteSongTitle')}
      description={t('deleteSongBody', { title: song.displayName })}
      confirmLabel={t('deleteSongConfirm')}
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
