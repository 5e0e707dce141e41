import type { Song } from '@encore/common/library.contract';
import { LYRICS_TEXT_MAX, type LyricsModel } from '@encore/common/lyrics.contract';
import { Maximize2, Mic2, Pencil, Timer } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Progress } from '../../components/ui/progress';
import { Spinner } from '../../components/ui/spinner';
import { TryAgainButton } from '../../components/try-again-button';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { isRightToLeft } from './karaoke';
import { KaraokeLines } from './karaoke-lines.component';
import { useLyrics, useSaveLyricsText, useTranscription } from './lyrics.queries';
import { TranscriptionFailed } from './transcription-failed.component';
import { LyricsCounts } from './lyrics-counts.component';
import { LyricsEdit } from './lyrics-edit.component';
import { LyricsEmpty } from './lyrics-empty.component';
import { LyricsExport } from './lyrics-export.component';
import { SingAlong } from './sing-along.component';

const noWords: readonly never[] = [];

/**
 * The song page's lyrics panel (SPEC 2 and 4, issue 11): loading, transcribing with the job's
 * real progress, no lyrics (transcribe, find online, import), viewing with karaoke and the
 * sing-along view, editing (the uploader only), export.
 */
export function LyricsPanel({ song }: { song: Song }) {
  const t = useT();
  const lyrics = useLyrics(song.id);
  const transcription = useTranscription(song.id);

  return (
    <section
      aria-labelledby="lyrics-title"
      data-testid="lyrics-panel"
      className="flex flex-col gap-4 rounded-2xl border border-border bg-surface/60 p-4 sm:p-5"
    >
      {lyrics.isPending ? (
        <>
          <h2 id="lyrics-title" className="text-lg font-bold">
            {t('lyricsTitle')}
          </h2>
          <p role="status" className="flex items-center gap-2 text-sm text-muted">
            <Spinner /> {t('lyricsLoading')}
          </p>
        </>
      ) : transcription.running ? (
        <>
          <h2 id="lyrics-title" className="text-lg font-bold">
            {t('lyricsTitle')}
          </h2>
          <div role="status" className="flex flex-col gap-2" data-testid="lyrics-transcribing">
            <p className="flex items-center gap-2 font-medium">
              <Mic2 aria-hidden className="size-4 text-fuchsia-300" />
              {t('lyricsTranscribing')}
              <span className="ms-auto text-sm text-muted tabular-nums">{formatQuantity(transcription.progress, '%')}</span>
            </p>
            <Progress value={transcription.progress} aria-label={t('lyricsTranscribing')} />
            <p className="text-xs text-muted">{transcription.phase ?? t('lyricsTranscribingBody')}</p>
          </div>
        </>
      ) : lyrics.isError ? (
        <>
          <h2 id="lyrics-title" className="text-lg font-bold">
            {t('lyricsTitle')}
          </h2>
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
            {t('lyricsLoadFailed')}
            <TryAgainButton query={lyrics} size="sm" variant="secondary" />
          </div>
        </>
      ) : !lyrics.data.hasLyrics ? (
        <>
          <h2 id="lyrics-title" className="text-lg font-bold">
            {t('lyricsTitle')}
          </h2>
          {transcription.failed ? <TranscriptionFailed /> : null}
          <LyricsEmpty songId={song.id} canEdit={lyrics.data.canEdit} onTranscribe={transcription.start} transcribeBusy={transcription.starting} />
        </>
      ) : (
        <LyricsShown song={song} lyrics={lyrics.data} />
      )}
    </section>
  );
}

function LyricsShown({ song, lyrics }: { song: Song; lyrics: LyricsModel }) {
  const t = useT();
  const text = lyrics.text;
  const words = lyrics.words ?? noWords;
  const [editing, setEditing] = useState(false);
  const [karaoke, setKaraoke] = useState(false);
  const [singing, setSinging] = useState(false);
  const save = useSaveLyricsText(song.id);
  const rtl = useMemo(() => isRightToLeft(text), [text]);
  const timing = { word: t('lyricsTimedWords'), line: t('lyricsTimedLines'), none: t('lyricsUntimed') }[lyrics.timing];

  const toggleKaraoke = () => {
    if (!karaoke) toast.success(t('karaokeActivated'));
    setKaraoke(!karaoke);
  };

  return (
    <>
      <header className="flex flex-wrap items-center gap-2">
        <h2 id="lyrics-title" className="me-auto text-lg font-bold">
          {t('lyricsTitle')}
        </h2>
        {!editing ? (
          <>
            <Button variant={karaoke ? 'primary' : 'secondary'} size="sm" aria-pressed={karaoke} onClick={toggleKaraoke}>
              <Mic2 aria-hidden className="size-4" />
              {t('lyricsKaraoke')}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setSinging(true)}>
              <Maximize2 aria-hidden className="size-4" />
              {t('lyricsSingAlong')}
            </Button>
            {lyrics.canEdit ? (
              <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden className="size-4" />
                {t('lyricsEdit')}
              </Button>
            ) : null}
            <LyricsExport song={song} />
          </>
        ) : null}
      </header>
      {editing ? (
        <LyricsEdit
          initialText={text}
          maxLength={LYRICS_TEXT_MAX}
          rtl={rtl}
          saving={save.isPending}
          onCancel={() => setEditing(false)}
          onSave={(next) => save.mutate(next, { onSuccess: () => setEditing(false) })}
        />
      ) : (
        <>
          {karaoke ? (
            <KaraokeLines song={song} text={text} lines={lyrics.lines} words={words} rtl={rtl} size="panel" />
          ) : (
            <div dir={rtl ? 'rtl' : 'auto'} data-testid="lyrics-text" className="max-h-[26rem] overflow-y-auto text-base leading-relaxed whitespace-pre-wrap">
              {text.split('\n').map((line, index) => (
                <p
                  key={index}
                  className={cn(
                    'min-h-[1.6em]',
                    /^\s*\[[^\]]*\]\s*$/u.test(line) && 'mt-2 text-sm font-semibold tracking-wide text-fuchsia-300/80 uppercase rtl:tracking-normal',
                  )}
                >
                  {line}
                </p>
              ))}
            </div>
          )}
          <footer className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-border pt-3">
            <LyricsCounts text={text} />
            <span className="text-xs text-muted">
              {lyrics.source ? `${t(`lyricsSource_${lyrics.source}`)} · ` : null}
              {timing}
            </span>
            {lyrics.canEdit ? (
              <Link to={`/music/${song.id}/words`} className="ms-auto inline-flex items-center gap-1.5 text-sm font-medium text-accent hover:underline">
                <Timer aria-hidden className="size-4" />
                {t('lyricsWordTimings')}
              </Link>
            ) : null}
          </footer>
          <SingAlong song={song} text={text} lines={lyrics.lines} words={words} rtl={rtl} open={singing} onOpenChange={setSinging} />
        </>
      )}
    </>
  );
}
