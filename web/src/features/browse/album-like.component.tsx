import type { AlbumDetail } from '@encore/common/browse.contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Heart } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { songQueryKeys } from '../../lib/song-query-keys';
import { postSongLike } from './browse.api';
import { browseKeys } from './browse.queries';

/** Whether the viewer liked every song of the album (what the album's Like shows pressed). */
export const isAlbumLiked = (album: Pick<AlbumDetail, 'songs'>) => album.songs.length > 0 && album.songs.every((song) => song.isLiked);

/**
 * Likes every song of the album, or, when all are liked, unlikes them all. Songs are liked one
 * by one (the library's toggle) and only those not yet as wanted are toggled; each answer's
 * state is what the page then shows, and every song list is refreshed when next shown.
 */
export function useLikeAlbum(album: AlbumDetail) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('browseLikeFailed') } },
    mutationFn: async (like: boolean) => {
      const changed = new Map<number, boolean>();
      for (const song of album.songs) {
        if (song.isLiked === like) continue;
        const answer = await postSongLike(song.id);
        changed.set(answer.id, answer.isLiked);
      }
      return changed;
    },
    onSettled: () => {
      // The album's songs as the server has them now (after a failure part-way too), and every list later.
      void client.invalidateQueries({ queryKey: browseKeys.album(album.id) });
      void client.invalidateQueries({ queryKey: songQueryKeys.all, refetchType: 'none' });
    },
    onSuccess: (changed) => {
      client.setQueryData<AlbumDetail>(browseKeys.album(album.id), (cached) =>
        cached ? { ...cached, songs: cached.songs.map((song) => ({ ...song, isLiked: changed.get(song.id) ?? song.isLiked })) } : cached,
      );
    },
  });
}

/** The album page's Like: pressed when every song is liked; a press likes them all, or unlikes them all. */
export function AlbumLikeButton({ album }: { album: AlbumDetail }) {
  const t = useT();
  const like = useLikeAlbum(album);
  const liked = isAlbumLiked(album);
  return (
    <Button
      variant="outline"
      aria-pressed={liked}
      title={liked ? t('browseUnlikeAlbumHint') : t('browseLikeAlbumHint')}
      onClick={() => like.mutate(!liked)}
      disabled={like.isPending || album.songs.length === 0}
    >
      {like.isPending ? <Spinner className="size-4" /> : <Heart aria-hidden className={cn('size-4', liked && 'fill-current text-fuchsia-400')} />}
      {t('browseLike')}
    </Button>
  );
}
