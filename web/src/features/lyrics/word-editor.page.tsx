import { wordsFromLines } from '@encore/common/lyrics-words.rules';
import { DEFAULT_TEXT_STYLE, type TextStyle } from '@encore/common/text-style.contract';
import type { Word } from '@encore/common/words.contract';
import type { Song } from '@encore/common/library.contract';
import { Redo2, Save, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useParams } from 'react-router';
import { BackLink } from '../../components/back-link';
import { DetailQueryView } from '../../components/detail-query-view';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useCoverImage } from '../../lib/cover-image.query';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { songHeadline } from '../../lib/song-headline';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useLyrics, useSaveWords, useSongForLyrics, useTranscription, type Transcription } from './lyrics.queries';
import { TextStyleControls } from './text-style-controls.component';
import { Progress } from '../../components/ui/progress';
import { useActiveWordKey, useEditorAudio } from './use-editor-audio';
import { seekMedia } from './media-control';
import { useTapSync } from './use-tap-sync';
import { initialHistory, isDirty, roundTime, wordsReducer, wordsToSave } from './word-editor.state';
import { WordList } from './word-list.component';
import { wordProblems } from './word-problems';
import { WordStage } from './word-stage.component';
import { TranscriptionFailed } from './transcription-failed.component';
import { WordToolbar } from './word-toolbar.component';
import { lazyComponent } from '../../lib/lazy-component';

/** wavesurfer.js arrives with the waveform, after the words are already on screen. */
const WordWaveform = lazyComponent(async () => (await import('./word-waveform.component')).WordWaveform);

/** The word-timing editor at /music/{id}/words (SPEC 2, 3, 4, 5, 9). */
export function WordEditorPage() {
  const t = useT();
  const id = Number(useParams().id);
  const song = useSongForLyrics(id);
  useDocumentTitle('wordEditorPageTitle', song.data ? songHeadline(song.data) : undefined);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <DetailQueryView
        query={song}
        loadingText={t('songLoading')}
        notFoundTitle={t('songNotFoundTitle')}
        notFoundBody={t('songNotFoundBody')}
        errorTitle={t('songErrorTitle')}
        back={<BackLink to="/music">{t('backToMusic')}</BackLink>}
      >
        {(data) => <WordEditor song={data} />}
      </DetailQueryView>
    </div>
  );
}

function WordEditor({ song }: { song: Song }) {
  const t = useT();
  const lyrics = useLyrics(song.id);
  // A transcription that ends brings new words: the workbench starts over with them.
  const [generation, setGeneration] = useState(0);
  const transcription = useTranscription(song.id, () => setGeneration((value) => value + 1));
  // One word per word of the text: its own times, or (no word times yet) its line's time shared out.
  const textWords = useMemo(() => (lyrics.data ? (lyrics.data.words ?? wordsFromLines(lyrics.data.lines)) : []), [lyrics.data]);
  return (
    <article className="flex flex-col gap-6">
      <BackLink to={`/music/${song.id}`}>{t('wordEditorBack')}</BackLink>
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('wordEditorTitle')}</h1>
        <p dir="auto" className="text-muted rtl:text-right">
          {songHeadline(song)}
        </p>
      </header>
      {lyrics.isPending ? (
        <p role="status" className="flex items-center gap-2 text-muted">
          <Spinner /> {t('wordEditorLoading')}
        </p>
      ) : lyrics.isError ? (
        <p role="alert" className="text-danger">
          {t('lyricsLoadFailed')}
        </p>
      ) : (
        <WordWorkbench
          key={generation}
          song={song}
          text={lyrics.data.text}
          textWords={textWords}
          estimated={lyrics.data.words === null && lyrics.data.hasLyrics}
          canEdit={lyrics.data.canEdit}
          transcription={transcription}
        />
      )}
    </article>
  );
}

interface WordWorkbenchProps {
  song: Song;
  /** The lyrics text the words belong to; Save keeps every line of it the user did not empty. */
  text: string;
  /** One word per word of `text`, timed: what the editor starts from. */
  textWords: readonly Word[];
  /** The words' times are estimated from the lines (the lyrics have no word times yet). */
  estimated: boolean;
  canEdit: boolean;
  transcription: Transcription;
}

function WordWorkbench({ song, text, textWords, estimated, canEdit, transcription }: WordWorkbenchProps) {
  const t = useT();
  const count = useTCount();
  const [history, dispatch] = useReducer(wordsReducer, textWords, initialHistory);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [badFields, setBadFields] = useState<ReadonlySet<string>>(new Set());
  const [style, setStyle] = useState<TextStyle>(DEFAULT_TEXT_STYLE);
  const [audioReady, setAudioReady] = useState(false);
  const { media, url } = useEditorAudio(song.id);
  const cover = useCoverImage(song.hasCover ? song.s3Key : null, 'full');
  const save = useSaveWords(song.id);
  const words = history.present;
  const tap = useTapSync(media, words, dispatch);
  const activeKey = useActiveWordKey(media, words);
  const [duration, setDuration] = useState(song.durationSeconds ?? 0);

  useEffect(() => {
    const ready = () => {
      setAudioReady(true);
      if (Number.isFinite(media.duration) && media.duration > 0) setDuration(media.duration);
    };
    media.addEventListener('loadedmetadata', ready);
    if (media.readyState >= 1) ready();
    return () => media.removeEventListener('loadedmetadata', ready);
  }, [media]);

  // Undo and redo from the keyboard, as in every editor (not while typing in a field).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      dispatch({ type: event.shiftKey ? 'redo' : 'undo' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const keys = useMemo(() => new Set(words.map((word) => word.key)), [words]);
  const typedBad = [...badFields].some((field) => keys.has(field.split(':')[0]!));
  const songDuration = duration > 0 ? duration : null;
  const hasProblems = typedBad || words.some((word) => wordProblems(word, songDuration).length > 0);
  const dirty = isDirty(history);
  const toSave = useMemo(() => wordsToSave(text, history, textWords), [text, history, textWords]);

  const toggleSelect = useCallback((key: string) => {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const fieldValidity = useCallback((field: string, valid: boolean) => {
    setBadFields((current) => {
      if (current.has(field) !== valid) return current;
      const next = new Set(current);
      if (valid) next.delete(field);
      else next.add(field);
      return next;
    });
  }, []);
  const seek = useCallback(
    (seconds: number) => {
      if (media.paused) seekMedia(media, seconds);
    },
    [media],
  );
  const retime = useCallback(
    (key: string, start: number, end: number) => dispatch({ type: 'change', key, patch: { start: roundTime(start), end: roundTime(end) } }),
    [],
  );
  const selectFromWaveform = useCallback((key: string) => setSelected(new Set([key])), []);

  const onSave = () =>
    save.mutate({ words: toSave.words, transcript: toSave.transcript }, { onSuccess: (answer) => dispatch({ type: 'saved', stored: answer.words ?? [] }) });

  return (
    <div className="flex flex-col gap-6">
      <div className="sticky top-16 z-20 -mx-2 flex flex-wrap items-center gap-2 rounded-2xl border border-border bg-background/85 p-2 backdrop-blur">
        <Button variant="ghost" size="sm" disabled={history.past.length === 0} onClick={() => dispatch({ type: 'undo' })}>
          <Undo2 aria-hidden className="size-4 rtl:-scale-x-100" />
          {t('wordUndo')}
        </Button>
        <Button variant="ghost" size="sm" disabled={history.future.length === 0} onClick={() => dispatch({ type: 'redo' })}>
          <Redo2 aria-hidden className="size-4 rtl:-scale-x-100" />
          {t('wordRedo')}
        </Button>
        <span className="text-sm text-muted" data-testid="word-editor-status">
          {count('wordCount', words.length)} · {dirty ? t('wordUnsaved') : t('wordAllSaved')}
        </span>
        <span className="flex-1" />
        {hasProblems ? <span className="text-sm text-danger">{t('wordFixProblems')}</span> : null}
        {dirty && toSave.removedLines > 0 ? (
          <span role="status" className="text-sm text-amber-300" data-testid="word-editor-removes">
            {count('wordSaveRemovesLines', toSave.removedLines)}
          </span>
        ) : null}
        <Button size="sm" disabled={!canEdit || !dirty || hasProblems || save.isPending} onClick={onSave}>
          {save.isPending ? <Spinner /> : <Save aria-hidden className="size-4" />}
          {t('wordSave')}
        </Button>
      </div>

      {estimated ? (
        <p className="text-sm text-muted" data-testid="word-editor-estimated">
          {t('wordTimesEstimated')}
        </p>
      ) : null}

      <section className="flex flex-col gap-2" aria-labelledby="word-waveform-title">
        <h2 id="word-waveform-title" className="text-lg font-bold">
          {t('wordWaveformTitle')}
        </h2>
        <p className="text-sm text-muted">{t('wordWaveformHint')}</p>
        {url ? (
          <WordWaveform key={url} media={media} url={url} words={words} selected={selected} onRetime={retime} onSelect={selectFromWaveform} />
        ) : (
          <div className="h-32 animate-pulse rounded-2xl bg-surface" />
        )}
      </section>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]">
        <section className="flex flex-col gap-4" aria-labelledby="word-list-title">
          <h2 id="word-list-title" className="text-lg font-bold">
            {t('wordListTitle')}
          </h2>
          <WordToolbar
            words={words}
            selected={selected}
            dispatch={dispatch}
            tap={tap}
            audioReady={audioReady}
            songDuration={songDuration}
            onClearSelection={() => setSelected(new Set())}
          />
          {words.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border p-8 text-center">
              <h3 className="text-lg font-semibold">{t('wordEditorEmptyTitle')}</h3>
              <p className="max-w-md text-sm text-muted">{t('wordEditorEmptyBody')}</p>
              {transcription.failed ? <TranscriptionFailed /> : null}
              {transcription.running ? (
                <div role="status" className="flex w-full max-w-sm flex-col gap-2" data-testid="word-editor-transcribing">
                  <p className="text-sm font-medium">
                    {t('lyricsTranscribing')} <span className="tabular-nums">{formatQuantity(transcription.progress, '%')}</span>
                  </p>
                  <Progress value={transcription.progress} aria-label={t('lyricsTranscribing')} />
                </div>
              ) : (
                <Button onClick={transcription.start} disabled={transcription.starting}>
                  {transcription.starting ? <Spinner /> : null}
                  {t('wordTranscribeSong')}
                </Button>
              )}
            </div>
          ) : (
            <WordList
              words={words}
              selected={selected}
              activeKey={activeKey}
              revealKey={history.added}
              songDuration={songDuration}
              dispatch={dispatch}
              onToggleSelect={toggleSelect}
              onFieldValidity={fieldValidity}
              onSeek={seek}
            />
          )}
        </section>
        <aside className="flex flex-col gap-6 lg:sticky lg:top-36 lg:self-start">
          <WordStage media={media} ready={audioReady} words={words} style={style} duration={duration} coverUrl={cover.data ?? null} />
          <section className="flex flex-col gap-3 rounded-2xl border border-border bg-surface/60 p-4" aria-labelledby="word-style-title">
            <h2 id="word-style-title" className="text-lg font-bold">
              {t('wordStyleTitle')}
            </h2>
            <TextStyleControls style={style} onChange={setStyle} />
          </section>
        </aside>
      </div>
    </div>
  );
}
