import { useQuery } from '@tanstack/react-query';
import { Music2, PenLine, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { fetchSongLyrics } from './clips.api';
import { clipEditor, useClipEditor } from './clip-editor.store';
import { MediaUploader } from './media-uploader.component';
import { SongPicker } from './song-picker.component';

/** SPEC 2's Media tab: the song (picked by search, its words loaded into app state) and the pictures or video. */
export function MediaTab() {
  const t = useT();
  const song = useClipEditor((state) => state.song);
  const words = useClipEditor((state) => state.words);
  const hasMedia = useClipEditor((state) => state.media.items.length > 0);
  const lyrics = useQuery({
    queryKey: ['clips', 'song-lyrics', song?.id],
    queryFn: ({ signal }) => fetchSongLyrics(song!.id, signal),
    enabled: song !== null,
    staleTime: 0,
  });
  useEffect(() => {
    if (lyrics.data) clipEditor.setLyrics(lyrics.data.words, lyrics.data.lyrics);
  }, [lyrics.data]);

  const timed = words.filter((word) => word.end > word.start).length;
  const hasLines = (lyrics.data?.lyrics?.lines ?? []).some((line) => !line.isHeader && line.text.trim() !== '');

  return (
    <div className="flex flex-col gap-4">
      <section aria-label={t('clipSongHeading')} className="flex flex-col gap-2">
        <h2 className="text-sm font-semibold">{t('clipSongHeading')}</h2>
        {song ? (
          <div className="flex flex-col gap-2 rounded-xl border border-border bg-background/40 p-3">
            <div className="flex items-center gap-2">
              <Music2 aria-hidden className="size-4 shrink-0 text-fuchsia-300" />
              <span data-testid="clip-chosen-song" className="truncate text-sm font-semibold">
                {song.displayName}
              </span>
            </div>
            <p className="text-xs text-muted">
              {lyrics.isPending
                ? t('loading')
                : lyrics.isError
                  ? lyrics.error.message
                  : timed > 0
                    ? t('clipWordsTimed', { count: timed })
                    : hasLines
                      ? t('clipWordsNone')
                      : t('clipNoLyrics')}
            </p>
            <Link to={`/music/${song.id}/words`} className="inline-flex items-center gap-1.5 self-start text-xs font-semibold text-fuchsia-300 hover:underline">
              <PenLine aria-hidden className="size-3.5" />
              {t('clipEditWordTimings')}
            </Link>
          </div>
        ) : (
          // SPEC 2 shows the picker only while nothing is chosen; pictures chosen first still let the user pick the song.
          <SongPicker onChoose={clipEditor.chooseSong} />
        )}
      </section>

      <section aria-label={t('clipMediaHeading')} className="flex flex-col gap-2">
        <h2 className="text-sm font-semibold">{t('clipMediaHeading')}</h2>
        <MediaUploader />
      </section>

      {song || hasMedia ? (
        <Button type="button" variant="ghost" onClick={clipEditor.clear} className="self-start">
          <Trash2 aria-hidden />
          {t('clipClearSelection')}
        </Button>
      ) : null}
    </div>
  );
}
