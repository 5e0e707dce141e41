import type { Playlist } from '@encore/common/playlists.contract';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDeleteButton } from '../../components/confirm-delete-button';
import { useT } from '../../lib/i18n/i18n.store';
import { player } from '../../player/player.store';
import { playlistSource } from './playlist-playback';
import { useDeletePlaylist } from './playlists.queries';

/** Delete Playlist, behind a confirmation dialog; the songs stay in the library. */
export function DeletePlaylistButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const navigate = useNavigate();
  const remove = useDeletePlaylist();

  const confirm = (close: () => void) => {
    remove.mutate(playlist.id, {
      onSuccess: () => {
        close();
        if (player.getState().source === playlistSource(playlist.id)) player.close();
        toast.success(t('playlistDeleted'));
        void navigate('/playlists', { replace: true });
      },
    });
  };

  return (
    <ConfirmDeleteButton
      label={t('deletePlaylist')}
      title={t('deletePlaylistTitle')}
      description={t('deletePlaylistBody', { name: playlist.name })}
      confirmLabel={t('deletePlaylist')}
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
