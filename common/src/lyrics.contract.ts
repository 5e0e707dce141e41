import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { idField, multilineText, text } from './input.contract.js';
import { songIdParams } from './library.contract.js';
import { wordsSchema } from './words.contract.js';

/**
 * The lyrics of a song (one model per song, DECISIONS): text with `[Section]` headers, SPEC 3's
 * lines with times (SPEC 9's rule fills lines that have none), SPEC 3's words when timed by
 * word, the source and the language. The spec's `transcript` is its text.
 *
 * Calls (all under /api, signed in):
 * - GET  /files/{id}/lyrics                  -> LyricsModel
 * - PUT  /files/{id}/lyrics {transcript} | {words} -> LyricsTranscriptResponse (the spec's
 *   `transcript` plus the model). Plain text, LRC or ELRC (detected by time tags) or SRT.
 * - GET  /files/{id}/lyrics/export?format=lrc|elrc|srt|txt -> the file (attachment)
 * - GET  /files/{id}/lyrics/online           -> LyricsCandidates (LRCLIB)
 * - POST /files/{id}/lyrics/online {candidateId} -> LyricsTranscriptResponse (applies one)
 * - POST /files/{id}/transcribe {language?}  -> LyricsTranscriptResponse, when done (spec)
 * - POST /files/{id}/lyrics/transcription {language?} -> {taskId} at once; follow the task
 *   (kind LYRICS_TRANSCRIBE_TASK_KIND); its result is a TranscriptionResult
 * - GET  /files/{id}/lyrics/transcription   -> TranscriptionStatus | null (anyone may follow it)
 * - POST /transcribe_song {url}              -> {words} (spec; only URLs Encore issued)
 * Anyone signed in may transcribe or look up lyrics for a song that has none; only the
 * uploader may replace or edit existing lyrics (others get 404).
 */

/** The most text one song's lyrics may hold (characters); a long song has a few thousand. */
export const LYRICS_TEXT_MAX = 100_000;
/** The most lines one song's lyrics may hold. */
export const LYRICS_LINES_MAX = 5_000;
/** Imports (LRC, SRT, text files) longer than this (characters) are refused before parsing. */
export const LYRICS_IMPORT_MAX_BYTES = 512 * 1024;
/** The transcription progress bar of SPEC 4/9: capped at 95 until done (DECISIONS: real progress). */
export const TRANSCRIPTION_PROGRESS_CAP = 95;
/** The task kind of a transcription, for `useTask` and the tasks list. */
export const LYRICS_TRANSCRIBE_TASK_KIND = 'lyrics.transcribe';

/** Where the lyrics came from: the file's tags, the `.lrc` file beside it in a music folder (`sidecar`), an import, LRCLIB, a transcription, an edit. */
export const lyricsSource = z.enum(['embedded', 'sidecar', 'imported', 'lookup', 'transcribed', 'edited']);
export type LyricsSource = z.infer<typeof lyricsSource>;

export const lyricsTiming = z.enum(['none', 'line', 'word']);
export type LyricsTimingKind = z.infer<typeof lyricsTiming>;

export const lyricsExportFormat = z.enum(['lrc', 'elrc', 'srt', 'txt']);
export type LyricsExportFormat = z.infer<typeof lyricsExportFormat>;

/** A language: ISO 639-1/639-3 code ("en", "he"), or "auto" to let the engine detect it. */
export const lyricsLanguage = text('The language')
  .trim()
  .toLowerCase()
  // A refinement, not a second pattern: the shared text rule stays the field's pattern.
  .refine((value) => /^(auto|[a-z]{2,3})$/.test(value), { error: 'The language must be a two- or three-letter code, or auto' });

/** SPEC 3's Lyrics line (seconds). */
export const lyricsLineSchema = z.object({
  text: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  isHeader: z.boolean(),
});
export type LyricsLineDto = z.infer<typeof lyricsLineSchema>;

/** A word as the API answers it (stored words already passed `wordSchema`). */
export const wordDto = z.object({ text: z.string(), start: z.number(), end: z.number() });

export const lyricsModel = z.object({
  songId: z.number().int(),
  /** False when the song has no lyrics yet (text '' and no lines). */
  hasLyrics: z.boolean(),
  text: z.string(),
  lines: z.array(lyricsLineSchema),
  /** SPEC 3's Words when timed by word, else null. */
  words: z.array(wordDto).nullable(),
  timing: lyricsTiming,
  source: lyricsSource.nullable(),
  /** The lyrics' language when known ("en", "he"). */
  language: z.string().nullable(),
  /** The duration the lines were timed against (the song's, or SPEC 9's 240 s). */
  durationSeconds: z.number(),
  updatedAt: z.string().nullable(),
  /** True when the caller may replace or edit these lyrics (the uploader; anyone while none exist). */
  canEdit: z.boolean(),
  /** The transcription running for this song, if any: follow it with `useTask`. */
  transcriptionTaskId: z.string().nullable(),
});
export type LyricsModel = z.infer<typeof lyricsModel>;

/** The spec's PUT and POST transcribe answer `transcript`; the whole model comes beside it. */
export const lyricsTranscriptResponse = lyricsModel.extend({ transcript: z.string() });
export type LyricsTranscriptResponse = z.infer<typeof lyricsTranscriptResponse>;

/**
 * PUT /files/{id}/lyrics: `transcript` (plain text, LRC, ELRC or SRT: detected) or `words`
 * (SPEC 3's Words: timings of the text's words; the text changes only when `transcript` comes
 * with them, and must then hold the same words; a song without lyrics gets its lines from
 * them). Words alone never drop a line: as many as the text has also give its spelling;
 * fewer (or more) must each be a word of the text, else 400. `language` is optional.
 */
export const putLyricsBody = z
  .object({
    // An LRC/ELRC/SRT file carries its times too: the file may be larger than its text, and
    // the text it holds is checked against LYRICS_TEXT_MAX once read.
    transcript: multilineText('The lyrics')
      .max(LYRICS_IMPORT_MAX_BYTES, { error: `Lyrics files are at most ${LYRICS_IMPORT_MAX_BYTES / 1024} KB` })
      .optional(),
    words: wordsSchema.optional(),
    language: lyricsLanguage.optional(),
  })
  .refine((body) => body.transcript !== undefined || body.words !== undefined, { error: 'Send the lyrics as transcript or words' });
export type PutLyricsBody = z.input<typeof putLyricsBody>;

export const lyricsExportQuery = z.object({
  format: lyricsExportFormat.optional().default('lrc'),
});

/** One LRCLIB candidate of the lookup. */
export const lyricsCandidate = z.object({
  /** LRCLIB's record id; send it back to apply the candidate. */
  id: z.number().int(),
  trackName: z.string(),
  artistName: z.string(),
  albumName: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  /** synced: line times (LRC); plain: text only; instrumental: no words to sing. */
  kind: z.enum(['synced', 'plain', 'instrumental']),
  /** The first lines, to tell candidates apart. */
  preview: z.string(),
  lineCount: z.number().int(),
});
export type LyricsCandidate = z.infer<typeof lyricsCandidate>;

export const lyricsCandidates = z.object({
  /** What was asked (from the song's tags, else its display name). */
  query: z.object({ title: z.string(), artist: z.string().nullable(), album: z.string().nullable(), durationSeconds: z.number().nullable() }),
  candidates: z.array(lyricsCandidate),
});
export type LyricsCandidates = z.infer<typeof lyricsCandidates>;

export const applyCandidateBody = z.object({
  candidateId: idField('The candidate id'),
  /** synced (default when the candidate has it) or plain. */
  kind: z.enum(['synced', 'plain']).optional(),
});
export type ApplyCandidateBody = z.output<typeof applyCandidateBody>;

export const transcribeBody = z
  .object({ language: lyricsLanguage.optional() })
  .optional()
  .transform((body) => body ?? {});
export type TranscribeBody = z.input<typeof transcribeBody>;

export const transcriptionStarted = z.object({ taskId: z.string() });
export type TranscriptionStarted = z.infer<typeof transcriptionStarted>;

/** The transcription running for a song, whoever started it (tasks themselves are the starter's). */
export const transcriptionStatus = z.object({
  taskId: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  progress: z.number().int(),
  phase: z.string().nullable(),
  error: z.string().nullable(),
});
export type TranscriptionStatus = z.infer<typeof transcriptionStatus>;

/** A transcription task's `result` when done. */
export const transcriptionResult = z.object({
  songId: z.number().int(),
  engine: z.enum(['local', 'openai']),
  language: z.string().nullable(),
  wordCount: z.number().int(),
  lineCount: z.number().int(),
  /** False when the song got lyrics meanwhile that the requester may not replace. */
  stored: z.boolean(),
});
export type TranscriptionResult = z.infer<typeof transcriptionResult>;

/** SPEC 7's transcription service: the URL must be one Encore issued for one of its songs. */
export const transcribeSongBody = z.object({
  url: text('The song URL', 'url is required').trim().min(1, { error: 'url is required' }).max(4000, { error: 'The URL is too long' }),
});
export const transcribeSongResponse = z.object({ words: z.array(wordDto) });
export type TranscribeSongResponse = z.infer<typeof transcribeSongResponse>;

/** Messages the server answers with (the web app shows them as the toast's reason). */
export const LYRICS_MESSAGES = {
  notFound: 'Song not found',
  tooLong: `Lyrics are at most ${LYRICS_TEXT_MAX} characters`,
  tooManyLines: `Lyrics are at most ${LYRICS_LINES_MAX} lines`,
  noLyrics: 'This song has no lyrics yet',
  lookupOff: 'Online lyrics lookup is turned off (set LYRICS_LOOKUP_URL to enable it)',
  lookupUnreachable: 'The lyrics service could not be reached; check the connection and try again',
  candidateMissing: 'That lyrics candidate was not found',
  candidateInstrumental: 'That candidate is an instrumental: it has no lyrics',
  transcribeOff: 'Transcription is turned off: set TRANSCRIBE_ENGINE to local or openai',
  noDecodableAudio: 'The file has no decodable audio',
  urlNotOurs: 'The URL must be a song link issued by this Encore',
  wordsPastEnd: "A word's times must be within the song",
  wordsMismatch: 'The words do not match the lyrics text',
  wordsNotInText: 'Not in the lyrics text: {words}. To change the text, send it as transcript with the words',
} as const;

const tags = ['lyrics'];

/** `/files/:id/lyrics…` and the transcription calls; every one needs a signed-in user. */
export const lyricsEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/files/:id/lyrics',
    params: songIdParams,
    response: lyricsModel,
    summary: "A song's lyrics: text, SPEC 3's timed lines and words, source, language",
    tags,
  }),
  put: defineEndpoint({
    method: 'PUT',
    path: '/files/:id/lyrics',
    params: songIdParams,
    body: putLyricsBody,
    response: lyricsTranscriptResponse,
    summary: 'Store lyrics: {transcript} (plain text, LRC/ELRC or SRT, detected) and/or {words}; answers the transcript',
    tags,
  }),
  /** A text file as an attachment (documented as a string); the web saves it as a file. */
  export: defineEndpoint({
    method: 'GET',
    path: '/files/:id/lyrics/export',
    params: songIdParams,
    query: lyricsExportQuery,
    response: z.string(),
    summary: 'Download the lyrics as LRC, enhanced LRC (word times), SRT or plain text',
    tags,
  }),
  onlineCandidates: defineEndpoint({
    method: 'GET',
    path: '/files/:id/lyrics/online',
    params: songIdParams,
    response: lyricsCandidates,
    summary: 'Lyrics candidates from the lyrics database (LRCLIB), synced or plain',
    tags,
  }),
  applyOnline: defineEndpoint({
    method: 'POST',
    path: '/files/:id/lyrics/online',
    params: songIdParams,
    body: applyCandidateBody,
    response: lyricsTranscriptResponse,
    summary: 'Apply one candidate of the lookup as the song’s lyrics',
    tags,
  }),
  transcribe: defineEndpoint({
    method: 'POST',
    path: '/files/:id/transcribe',
    params: songIdParams,
    body: transcribeBody,
    response: lyricsTranscriptResponse,
    summary: 'Transcribe the song and answer the transcript when done (SPEC 7); joins a transcription already running',
    tags,
  }),
  startTranscription: defineEndpoint({
    method: 'POST',
    path: '/files/:id/lyrics/transcription',
    params: songIdParams,
    body: transcribeBody,
    response: transcriptionStarted,
    status: 202,
    summary: 'Start (or join) the song’s transcription; answers its task id at once (follow it at /api/tasks/{id})',
    tags,
  }),
  transcriptionStatus: defineEndpoint({
    method: 'GET',
    path: '/files/:id/lyrics/transcription',
    params: songIdParams,
    response: transcriptionStatus.nullable(),
    summary: 'The transcription running for this song, whoever started it (null when none)',
    tags,
  }),
  transcribeSong: defineEndpoint({
    method: 'POST',
    path: '/transcribe_song',
    body: transcribeSongBody,
    response: transcribeSongResponse,
    summary: 'SPEC 7’s transcription service: the words of a song, by a URL Encore issued for it',
    tags,
  }),
};
