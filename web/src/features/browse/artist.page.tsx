import type { ArtistDetail } from '@encore/common/browse.contract';
import { Play, Shuffle } from 'lucide-react';
import { useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { player } from '../../player/player.store';
import { AlbumCard, ArtistCard, ArtistImage } from './album-card.component';
import { SongRows, shuffled } from './album-songs.component';
import { BrowseDetail, BrowseHeader } from './browse-detail.component';
import { fetchAlbum } from './browse.api';
import { useArtist } from './browse.queries';

/** An artist (issue 38): albums by year, albums they appear on, the viewer's top songs, similar artists; Play all / Shuffle. */
export function ArtistPage() {
  const { id = '' } = useParams();
  const artist = useArtist(id);
  useDocumentTitle('libraryArtists', artist.data?.name);
  return <BrowseDetail query={artist}>{(data) => <ArtistView artist={data} />}</BrowseDetail>;
}

function ArtistView({ artist: data }: { artist: ArtistDetail }) {
  const t = useT();
  const count = useTCount();
  /** Every song of their albums, album by album (oldest first), each in disc and track order. */
  const allSongs = async () => (await Promise.all(data.albums.map((album) => fetchAlbum(album.id)))).flatMap((album) => album.songs);
  const source = `artist:${data.id}`;

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <BrowseHeader
        image={
          <ArtistImage
            artist={{ imageKey: data.imageKey, mosaicKeys: data.albums.flatMap((album) => (album.coverKey ? [album.coverKey] : [])).slice(0, 4) }}
            className="size-48 shrink-0 rounded-full shadow-2xl"
          />
        }
        title={data.name}
        actions={
          <>
            <Button onClick={() => void allSongs().then((songs) => player.playQueue(songs, 0, { source }))} disabled={data.albums.length === 0}>
              <Play aria-hidden className="size-4" />
              {t('browsePlayAll')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => void allSongs().then((songs) => player.playQueue(shuffled(songs), 0, { source }))}
              disabled={data.albums.length === 0}
            >
              <Shuffle aria-hidden className="size-4" />
              {t('browseShuffle')}
            </Button>
          </>
        }
      >
        <p className="text-sm text-muted">{count('browseAlbumCount', data.albums.length)}</p>
      </BrowseHeader>
      {data.topSongs.length > 0 ? (
        <section className="mt-10" aria-labelledby="artist-top-songs">
          <h2 id="artist-top-songs" className="mb-3 text-xl font-bold">
            {t('browseTopSongs')}
          </h2>
          <SongRows songs={data.topSongs} source={`${source}:top`} showTrack={false} />
        </section>
      ) : null}
      {[
        { key: 'albums', title: t('browseAlbums'), albums: data.albums, showArtist: false },
        { key: 'appears-on', title: t('browseAppearsOn'), albums: data.appearsOn, showArtist: true },
      ].map((group) =>
        group.albums.length > 0 ? (
          <section key={group.key} className="mt-10" aria-labelledby={`artist-${group.key}`}>
            <h2 id={`artist-${group.key}`} className="mb-3 text-xl font-bold">
              {group.title}
            </h2>
            <ul className="grid grid-cols-2 gap-5 sm:grid-cols-3 lg:grid-cols-5">
              {group.albums.map((album) => (
                <li key={album.id}>
                  <AlbumCard album={album} showArtist={group.showArtist} />
                </li>
              ))}
            </ul>
          </section>
        ) : null,
      )}
      {data.similarArtists.length > 0 ? (
        <section className="mt-10" aria-labelledby="artist-similar">
          <h2 id="artist-similar" className="mb-3 text-xl font-bold">
            {t('browseSimilarArtists')}
          </h2>
          <ul className="grid grid-cols-2 gap-5 sm:grid-cols-4 lg:grid-cols-6">
            {data.similarArtists.map((similar) => (
              <li key={similar.id}>
                <ArtistCard artist={similar} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
