import type { SongDetail as SongWithAnalysis } from '@encore/common/library.contract';
import { Link, useParams } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { DetailQueryView } from '../../components/detail-query-view';
import { BackLink } from '../../components/back-link';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSong } from './library.queries';
import { SongActions, type SongPageAddOns } from './song-actions.component';
import { SongInfoCard, SongTagsCard } from './song-info-card.component';
import { SongPlayback } from './song-playback.component';
import { PageGlow } from '../../components/page-glow';

/**
 * The song page /music/{id} (SPEC 2); the router lets only numeric ids through. `addOns` are
 * the other features' pieces, composed in web/src/pages/song.page.tsx.
 */
export function SongPage({ addOns }: { addOns: SongPageAddOns }) {
  const t = useT();
  const id = Number(useParams().id);
  const song = useSong(id);
  useDocumentTitle('songPageTitle', song.data?.displayName);

  const backToMusic = (
    <Button asChild variant="secondary">
      <Link to="/music">{t('backToMusic')}</Link>
    </Button>
  );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <PageGlow className="top-10 h-[420px] max-w-4xl" />
      <DetailQueryView
        query={song}
        loadingText={t('songLoading')}
        notFoundTitle={t('songNotFoundTitle')}
        notFoundBody={t('songNotFoundBody')}
        errorTitle={t('songErrorTitle')}
        back={backToMusic}
      >
        {(data) => <SongDetail song={data} addOns={addOns} />}
      </DetailQueryView>
    </div>
  );
}

function SongDetail({ song, addOns }: { song: SongWithAnalysis; addOns: SongPageAddOns }) {
  const { SongSound } = addOns;
  const t = useT();
  const subtitle = [song.artist, song.album].filter(Boolean).join(' · ');
  return (
    <article className="flex flex-col gap-6">
      <BackLink to="/music">{t('backToAllMusic')}</BackLink>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,380px)_minmax(0,1fr)] lg:gap-12">
        <div className="flex min-w-0 flex-col gap-6">
          <CoverArt
            fileKey={song.hasCover ? song.s3Key : null}
            size="full"
            className="mx-auto aspect-square w-full max-w-[380px] rounded-3xl shadow-2xl shadow-fuchsia-950/40 ring-1 ring-white/10"
          />
          <SongTagsCard song={song} className="hidden lg:block" />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <header className="flex flex-col gap-2">
            <p className="text-xs font-semibold tracking-[0.2em] text-fuchsia-300 uppercase rtl:tracking-normal">{t('songEyebrow')}</p>
            <h1 dir="auto" className="text-3xl font-extrabold tracking-tight break-words text-balance sm:text-4xl rtl:text-right">
              {songHeadline(song)}
            </h1>
            {subtitle ? (
              <p dir="auto" className="text-lg text-muted rtl:text-right">
                {subtitle}
              </p>
            ) : null}
          </header>
          <SongSound song={song} />
          <SongPlayback song={song} />
          <SongActions song={song} addOns={addOns} />
          {/* Under the cover on a wide screen; in the column on a narrow one. */}
          <SongTagsCard song={song} className="lg:hidden" />
          <SongInfoCard song={song} />
          <addOns.LyricsPanel song={song} />
        </div>
      </div>
    </article>
  );
}
