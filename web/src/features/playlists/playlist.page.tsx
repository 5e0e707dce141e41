import type { Playlist } from '@encore/common/playlists.contract';
import { ArrowLeft, Pencil } from 'lucide-react';
import { PlaylistCover } from './playlist-cover.component';
import { AiGeneratedBadge } from '../../components/ai-generated-badge';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { DetailQueryView } from '../../components/detail-query-view';
import { BackLink } from '../../components/back-link';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AddSong } from './add-song.component';
import { DeletePlaylistButton } from './delete-playlist.component';
import { ExportPlaylistButton } from './export-playlist.component';
import { ImportPlaylistButton } from './import-playlist.component';
import { KeepFreshSwitch } from './keep-fresh.component';
import { PlaylistControls } from './playlist-controls.component';
import { PlaylistEditForm } from './playlist-edit-form.component';
import { usePlaylistPlayback } from './playlist-playback';
import { PlaylistSongList } from './playlist-song-list.component';
import { SaveOfflineButton } from './save-offline.component';
import { usePlaylist } from './playlists.queries';
import { PageGlow } from '../../components/page-glow';

/** Playlist detail /playlists/{id} (SPEC 2); the router lets only numeric ids through. */
export function PlaylistPage() {
  const t = useT();
  const id = Number(useParams().id);
  const playlist = usePlaylist(id);
  useDocumentTitle('playlistPageTitle', playlist.data?.name);

  const backButton = (
    <Button asChild variant="secondary">
      <Link to="/playlists">
        <ArrowLeft aria-hidden className="size-4 rtl:rotate-180" />
        {t('backToPlaylists')}
      </Link>
    </Button>
  );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <PageGlow className="top-10 h-[380px] max-w-3xl" />
      <DetailQueryView
        query={playlist}
        loadingText={t('playlistLoading')}
        notFoundTitle={t('playlistNotFoundTitle')}
        notFoundBody={t('playlistNotFoundBody')}
        errorTitle={t('playlistErrorTitle')}
        back={backButton}
      >
        {(data) => <PlaylistDetail playlist={data} />}
      </DetailQueryView>
    </div>
  );
}

function PlaylistDetail({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const countOf = useTCount();
  const [editing, setEditing] = useState(false);
  const playback = usePlaylistPlayback(playlist.id, playlist.songs);
  const count = countOf('playlistSongCount', playlist.songCount);

  return (
    <article className="flex flex-col gap-6">
      <BackLink to="/playlists">{t('backToPlaylists')}</BackLink>
      <Card className="flex flex-col gap-6 p-5 sm:p-7">
        <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
          <PlaylistCover songs={playlist.songs} className="size-28 rounded-2xl sm:size-36" />
          {editing ? (
            <PlaylistEditForm playlist={playlist} onDone={() => setEditing(false)} />
          ) : (
            <header className="flex min-w-0 flex-1 flex-col gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <p className="text-xs font-semibold tracking-[0.2em] text-fuchsia-300 uppercase rtl:tracking-normal">{t('playlistEyebrow')}</p>
                {playlist.aiPrompt ? <AiGeneratedBadge /> : null}
              </div>
              <h1 dir="auto" className="text-3xl font-extrabold tracking-tight break-words text-balance sm:text-4xl rtl:text-right">
                {playlist.name}
              </h1>
              <p className="text-sm font-medium text-muted">{count}</p>
              {playlist.description ? (
                <p dir="auto" className="max-w-prose text-sm leading-relaxed whitespace-pre-line text-muted rtl:text-right">
                  {playlist.description}
                </p>
              ) : null}
              {playlist.aiPrompt ? (
                <p className="max-w-prose text-sm text-muted">
                  <span className="font-semibold text-foreground">{t('aiPromptHeading')}: </span>
                  <q dir="auto" className="italic">
                    {playlist.aiPrompt}
                  </q>
                </p>
              ) : null}
              <KeepFreshSwitch playlist={playlist} />
            </header>
          )}
        </div>
        {editing ? null : (
          <div className="flex flex-wrap items-center gap-2.5">
            <Button variant="secondary" onClick={() => setEditing(true)}>
              <Pencil aria-hidden className="size-4" />
              {t('editPlaylist')}
            </Button>
            <ExportPlaylistButton playlist={playlist} />
            <ImportPlaylistButton playlist={playlist} />
            <SaveOfflineButton playlist={playlist} />
            <span className="ms-auto">
              <DeletePlaylistButton playlist={playlist} />
            </span>
          </div>
        )}
        <div className="border-t border-border pt-5">
          <PlaylistControls playback={playback} />
        </div>
      </Card>

      <AddSong playlist={playlist} />

      <section aria-labelledby="playlist-songs-heading" className="flex flex-col gap-3">
        <h2 id="playlist-songs-heading" className="text-lg font-bold tracking-tight">
          {t('playlistSongsHeading')}
        </h2>
        <PlaylistSongList playlistId={playlist.id} songs={playlist.songs} currentSongId={playback.currentSongId} isPlaying={playback.isPlaying} />
      </section>
    </article>
  );
}
