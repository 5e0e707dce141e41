import type { ApplyCandidateBody, LyricsModel, LyricsTranscriptResponse } from '@encore/common/lyrics.contract';
import type { Word } from '@encore/common/words.contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useT } from '../../lib/i18n/i18n.store';
import { songQueryKeys } from '../../lib/song-query-keys';
import { useTask } from '../../lib/tasks/use-task';
import { applyOnlineCandidate, fetchLyrics, fetchOnlineCandidates, fetchSongForLyrics, putTranscript, putWords, startTranscription } from './lyrics.api';

/** The lyrics of a song in the query cache, beside its detail entry. */
export const lyricsQueryKey = (songId: number) => ['songs', 'lyrics', songId] as const;

/** While a transcription someone else started runs (its task is not ours to follow), the lyrics are read again this often. */
const FOREIGN_TRANSCRIPTION_POLL_MS = 3000;

/** The song itself, shared with the song page's cache entry. */
export function useSongForLyrics(id: number) {
  return useQuery({ queryKey: songQueryKeys.detail(id), queryFn: ({ signal }) => fetchSongForLyrics(id, signal) });
}

export function useLyrics(songId: number) {
  return useQuery({
    queryKey: lyricsQueryKey(songId),
    queryFn: ({ signal }) => fetchLyrics(songId, signal),
    refetchInterval: (query) => (query.state.data?.transcriptionTaskId ? FOREIGN_TRANSCRIPTION_POLL_MS : false),
  });
}

/** New lyrics from the server: the model goes to the cache, the song's transcript to its detail and lists. */
function storeLyrics(client: QueryClient, songId: number, answer: LyricsTranscriptResponse): void {
  const { transcript: _transcript, ...model } = answer;
  client.setQueryData<LyricsModel>(lyricsQueryKey(songId), model);
  void client.invalidateQueries({ queryKey: songQueryKeys.detail(songId) });
  void client.invalidateQueries({ queryKey: songQueryKeys.lists(), refetchType: 'none' });
}

/** SPEC 4: a lyrics update stores the transcript; 'Lyrics saved successfully!' or 'Failed to save lyrics'. */
export function useSaveLyricsText(songId: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: (transcript: string) => putTranscript(songId, transcript),
    onSuccess: (answer) => {
      storeLyrics(client, songId, answer);
      toast.success(t('lyricsSaved'));
    },
    meta: { errorToast: { title: t('lyricsSaveFailed'), fallback: '' } },
  });
}

/** The word editor's Save. */
export function useSaveWords(songId: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: ({ words, transcript }: { words: readonly Word[]; transcript?: string | undefined }) => putWords(songId, words, transcript),
    onSuccess: (answer) => {
      storeLyrics(client, songId, answer);
      toast.success(t('wordSaved'));
    },
    meta: { errorToast: { title: t('wordSaveFailed'), fallback: '' } },
  });
}

/** The lookup's candidates, asked for when the dialog opens; a failure shows in the dialog. */
export function useOnlineCandidates(songId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['songs', 'lyrics-online', songId],
    queryFn: ({ signal }) => fetchOnlineCandidates(songId, signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useApplyCandidate(songId: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: (body: ApplyCandidateBody) => applyOnlineCandidate(songId, body),
    onSuccess: (answer) => {
      storeLyrics(client, songId, answer);
      toast.success(t('lyricsSaved'));
    },
    meta: { errorToast: { title: t('lyricsSaveFailed'), fallback: '' } },
  });
}

export interface Transcription {
  start: () => void;
  /** The start request is on its way. */
  starting: boolean;
  running: boolean;
  /** For the bar: the job's real progress, capped at 95 until done (DECISIONS). */
  progress: number;
  phase: string | null;
  /** The last transcription failed: the panel says so in the reader's language (its technical reason stays in the server's log). */
  failed: boolean;
}

/**
 * 'Transcribe Lyrics with AI' (SPEC 4, issue 11): starts the job, follows its task (ours, or
 * the one already running for the song) and, when it ends, toasts
 * 'Lyrics transcribed successfully!' or 'Failed to transcribe lyrics' with what the user can do
 * (issue 37: not the server's technical reason, which its log keeps).
 */
export function useTranscription(songId: number, onDone?: () => void): Transcription {
  const client = useQueryClient();
  const t = useT();
  const lyrics = useLyrics(songId);
  const [ownTaskId, setOwnTaskId] = useState<string | null>(null);
  const taskId = ownTaskId ?? lyrics.data?.transcriptionTaskId ?? null;
  const { task, progress, error } = useTask(taskId);
  const handled = useRef(new Set<string>());
  const latestOnDone = useRef(onDone);
  useEffect(() => {
    latestOnDone.current = onDone;
  });

  const start = useMutation({
    mutationFn: () => startTranscription(songId),
    onSuccess: (id) => setOwnTaskId(id),
    meta: { errorToast: { title: t('lyricsTranscribeFailed'), fallback: '' } },
  });

  useEffect(() => {
    if (!task || handled.current.has(task.id)) return;
    if (task.state !== 'done' && task.state !== 'failed' && task.state !== 'cancelled') return;
    handled.current.add(task.id);
    if (task.state === 'done') toast.success(t('lyricsTranscribed'));
    else if (task.state === 'failed') toast.error(t('lyricsTranscribeFailed'), { description: t('lyricsTranscribeFailedBody') });
    void client.invalidateQueries({ queryKey: lyricsQueryKey(songId) }).then(() => latestOnDone.current?.());
    void client.invalidateQueries({ queryKey: songQueryKeys.detail(songId) });
  }, [task, client, songId, t]);

  const finished = task !== undefined && task.state !== 'queued' && task.state !== 'running';
  // A task we cannot follow (another user's) still shows as running until the lyrics say it ended.
  const running = taskId !== null && !finished && !(error && ownTaskId !== null);
  return {
    start: () => start.mutate(),
    starting: start.isPending,
    running,
    progress: error ? 0 : progress,
    phase: task?.phase ?? null,
    failed: task?.state === 'failed' && !start.isPending,
  };
}
