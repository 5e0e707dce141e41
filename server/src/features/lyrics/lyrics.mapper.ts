import { documentLines, timingOf } from '@encore/common/lyrics-document.rules';
import { effectiveDuration } from '@encore/common/lyrics-timing.rules';
import type { LyricsModel, LyricsTranscriptResponse } from '@encore/common/lyrics.contract';
import type { LyricsView } from './lyrics.service.js';

/** The wire's lyrics model (SPEC 3's lines filled by SPEC 9's rule, SPEC 3's words). */
export function toLyricsModel(view: LyricsView): LyricsModel {
  const { song, stored } = view;
  const duration = effectiveDuration(song.durationSeconds);
  if (!stored) {
    return {
      songId: song.id,
      hasLyrics: false,
      text: '',
      lines: [],
      words: null,
      timing: 'none',
      source: null,
      language: null,
      durationSeconds: duration,
      updatedAt: null,
      canEdit: true,
      transcriptionTaskId: view.transcriptionTaskId,
    };
  }
  const { document } = stored;
  return {
    songId: song.id,
    hasLyrics: document.text !== '',
    text: document.text,
    lines: documentLines(document, song.durationSeconds),
    words: document.words && document.words.length > 0 ? document.words : null,
    timing: timingOf(document),
    source: stored.source,
    language: stored.language,
    durationSeconds: duration,
    updatedAt: stored.updatedAt.toISOString(),
    canEdit: view.viewerId === song.ownerId || document.text === '',
    transcriptionTaskId: view.transcriptionTaskId,
  };
}

/** The spec's answer (`transcript`) with the model beside it. */
export function toTranscriptResponse(view: LyricsView): LyricsTranscriptResponse {
  const model = toLyricsModel(view);
  return { ...model, transcript: model.text };
}
