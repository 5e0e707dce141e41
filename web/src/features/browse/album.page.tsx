import type { AlbumDetail } from '@encore/common/browse.contract';
import type { SongListEntry } from '@encore/common/library.contract';
import { Download, ListEnd, ListPlus, Play, Shuffle } from 'lucide-react';
import { useState, type ComponentType } from 'react';
import { Link, useParams } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { formatClockTime } from '../../lib/clock-time.format';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { saveBlob } from '../../lib/save-blob';
import { useDocumentTitle } from '../../lib/use-document-title';
import { player } from '../../player/player.store';
import { AlbumLikeButton } from './album-like.component';
import { SongRows, shuffled } from './album-songs.component';
import { BrowseDetail, BrowseHeader } from './browse-detail.component';
import { fetchAlbumZip } from './browse.api';
import { useAlbum } from './browse.queries';

/** Other features' pieces on the album page, composed in web/src/pages/album.page.tsx. */
export interface AlbumPageAddOns {
  /** The playlists' Add to Playlist, for every song of the album in order. */
  AddToPlaylist: ComponentType<{ songs: readonly SongListEntry[]; name: string }>;
}

/** The songs grouped by disc, in the album's order (a song without a disc number is on disc 1). */
function byDisc(songs: readonly SongListEntry[]): [number, SongListEntry[]][] {
  const discs = new Map<number, SongListEntry[]>();
  for (const song of songs) {
    const disc = song.discNumber ?? 1;
    discs.set(disc, [...(discs.get(disc) ?? []), song]);
  }
  return [...discs];
}

/**
 * An album (issue 38): large cover, artist link, year, genres, total length, songs by disc;
 * play, shuffle, play next, add to queue, add to playlist, like, download.
 */
export function AlbumPage({ addOns }: { addOns: AlbumPageAddOns }) {
  const { id = '' } = useParams();
  const album = useAlbum(id);
  useDocumentTitle('libraryAlbums', album.data?.name);
  return <BrowseDetail query={album}>{(data) => <AlbumView album={data} addOns={addOns} />}</BrowseDetail>;
}

function AlbumView({ album: data, addOns }: { album: AlbumDetail; addOns: AlbumPageAddOns }) {
  const t = useT();
  const count = useTCount();
  const [downloading, setDownloading] = useState(false);
  const songs = data.songs;
  const discs = byDisc(songs);
  const source = `album:${data.id}`;
  const download = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await fetchAlbumZip(data.id);
      saveBlob(blob, fileName ?? `${data.name}.zip`);
    } catch (error) {
      toastApiError(error, { fallback: t('browseDownloadFailed') });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="relative isolate mx-auto w-full max-w-5xl px-4 pt-28 pb-16 sm:px-6">
      <BrowseHeader
        image={<CoverArt fileKey={data.coverKey} size="full" className="aspect-square w-full max-w-64 shrink-0 rounded-2xl shadow-2xl" />}
        title={data.name}
        actions={
          <>
            <Button onClick={() => player.playQueue(songs, 0, { source })} disabled={songs.length === 0}>
              <Play aria-hidden className="size-4" />
              {t('browsePlay')}
            </Button>
            <Button variant="secondary" onClick={() => player.playQueue(shuffled(songs), 0, { source })} disabled={songs.length === 0}>
              <Shuffle aria-hidden className="size-4" />
              {t('browseShuffle')}
            </Button>
            <Button variant="outline" onClick={() => player.addNext(songs)} disabled={songs.length === 0}>
              <ListPlus aria-hidden className="size-4" />
              {t('browsePlayNext')}
            </Button>
            <Button variant="outline" onClick={() => player.addToQueue(songs)} disabled={songs.length === 0}>
              <ListEnd aria-hidden className="size-4" />
              {t('browseAddToQueue')}
            </Button>
            <addOns.AddToPlaylist songs={songs} name={data.name} />
            <AlbumLikeButton album={data} />
            <Button variant="ghost" onClick={() => void download()} disabled={downloading}>
              {downloading ? <Spinner className="size-4" /> : <Download aria-hidden className="size-4" />}
              {t('browseDownload')}
            </Button>
          </>
        }
      >
        <p className="text-sm">
          <Link to={`/artists/${data.artist.id}`} className="font-semibold text-accent hover:underline focus-visible:underline focus-visible:outline-none">
            <bdi>{data.artist.name}</bdi>
          </Link>
          {data.year !== null ? (
            <>
              {' · '}
              <bdi dir="ltr">{data.year}</bdi>
            </>
          ) : null}
        </p>
        <p className="text-xs text-muted">
          {data.genres.length > 0 ? (
            <>
              <bdi>{data.genres.join(', ')}</bdi>
              {' · '}
            </>
          ) : null}
          {count('browseSongCount', data.songCount)}
          {' · '}
          <span className="sr-only">{t('browseTotalLength')} </span>
          <bdi dir="ltr">{formatClockTime(data.durationSeconds)}</bdi>
        </p>
      </BrowseHeader>
      <section aria-label={t('browseAlbumBy', { artist: data.artist.name })} className="mt-8 flex flex-col gap-6">
        {discs.map(([disc, discSongs]) => (
          <div key={disc}>
            {discs.length > 1 ? <h2 className="mb-2 text-sm font-semibold text-muted">{t('browseDisc', { number: disc })}</h2> : null}
            <SongRows songs={discSongs} queue={songs} source={source} />
          </div>
        ))}
      </section>
    </div>
  );
}
