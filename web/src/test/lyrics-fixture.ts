import type { LyricsModel } from '@encore/common/lyrics.contract';
import type { Task } from '@encore/common/tasks.contract';

/** The lyrics model as the API answers it, for web tests. */
export function makeLyrics(songId: number, overrides: Partial<LyricsModel> = {}): LyricsModel {
  return {
    songId,
    hasLyrics: false,
    text: '',
    lines: [],
    words: null,
    timing: 'none',
    source: null,
    language: null,
    durationSeconds: 180,
    updatedAt: null,
    canEdit: true,
    transcriptionTaskId: null,
    ...overrides,
  };
}

/** Two timed lines under a header, with word times (as an ELRC import gives them). */
export function timedLyrics(songId: number, overrides: Partial<LyricsModel> = {}): LyricsModel {
  return makeLyrics(songId, {
    hasLyrics: true,
    text: '[Verse]\nhello bright world\nsing along now',
    lines: [
      { text: '[Verse]', startTime: 0, endTime: 1, isHeader: true },
      { text: 'hello bright world', startTime: 1, endTime: 4, isHeader: false },
      { text: 'sing along now', startTime: 4, endTime: 180, isHeader: false },
    ],
    words: [
      { text: 'hello', start: 1, end: 1.5 },
      { text: 'bright', start: 1.6, end: 2.2 },
      { text: 'world', start: 2.3, end: 3 },
      { text: 'sing', start: 4, end: 4.5 },
      { text: 'along', start: 4.6, end: 5.2 },
      { text: 'now', start: 5.3, end: 6 },
    ],
    timing: 'word',
    source: 'imported',
    updatedAt: '2026-03-05T12:00:00Z',
    ...overrides,
  });
}

let clock = 0;
/** A transcription task in a given state. */
export function transcriptionTask(id: string, state: Task['state'], progress: number, error: string | null = null): Task {
  clock += 1000;
  const at = new Date(Date.UTC(2026, 0, 1) + clock).toISOString();
  return {
    id,
    kind: 'lyrics.transcribe',
    subjectType: 'song',
    subjectId: '5',
    state,
    progress,
    phase: null,
    result: null,
    error,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    finishedAt: state === 'done' || state === 'failed' ? at : null,
  };
}
