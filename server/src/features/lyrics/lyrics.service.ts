import {
  documentFromWords,
  editDocument,
  exportLyrics,
  importLyrics,
  lineTokens,
  normaliseLyricsText,
  type LyricsDocument,
} from '@encore/common/lyrics-document.rules';
import { documentWords, sungWords, timeTokens } from '@encore/common/lyrics-words.rules';
import { looksLikeLrc } from '@encore/common/lyrics-lrc.format';
import { looksLikeSrt } from '@encore/common/lyrics-srt.format';
import { splitLines } from '@encore/common/lyrics-timing.rules';
import { LYRICS_LINES_MAX, LYRICS_MESSAGES, LYRICS_TEXT_MAX, type LyricsExportFormat, type LyricsSource } from '@encore/common/lyrics.contract';
import type { Word } from '@encore/common/words.contract';
import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { SongFacts, SongFactsSource } from '../library/library.port.js';
import type { LyricsRepository, StoredLyrics } from './lyrics.repository.js';
import type { TranscriptionClaims } from './transcription/transcription-claims.js';
import { safeFileName } from '../../platform/storage/safe-file-name.js';

/** What the lyrics feature reads of a song: its file, tags, duration, uploader and the text kept on it. */
export type LyricsSong = SongFacts;

/** A song's lyrics as one viewer sees them; the mapper turns it into the wire's model. */
export interface LyricsView {
  song: LyricsSong;
  stored: StoredLyrics | undefined;
  viewerId: number;
  transcriptionTaskId: string | null;
}

export interface PutLyricsInput {
  transcript?: string | undefined;
  words?: Word[] | undefined;
  language?: string | undefined;
}

/** Slack past the song's end a word may have (tags round durations; the last word rings on). */
const WORD_END_SLACK_SECONDS = 1;

/**
 * Reading, writing and exporting a song's lyrics. The collection is shared: anyone signed in
 * reads every song's lyrics and may give lyrics to a song that has none; only the uploader
 * replaces or edits existing ones (anyone else gets the song's 404, as for every owner-only act).
 */
export class LyricsService {
  constructor(
    private readonly repository: LyricsRepository,
    private readonly songs: Pick<SongFactsSource, 'song'>,
    private readonly transcriptions: Pick<TranscriptionClaims, 'live'>,
  ) {}

  async view(songId: number, viewerId: number): Promise<LyricsView> {
    const song = await this.requireSong(songId);
    const [stored, live] = await Promise.all([this.repository.find(songId), this.transcriptions.live(songId)]);
    return { song, stored, viewerId, transcriptionTaskId: live?.taskId ?? null };
  }

  /** PUT: text (plain, LRC/ELRC, SRT: detected), words, or both; answers the new view. */
  async put(songId: number, viewerId: number, input: PutLyricsInput): Promise<LyricsView> {
    const { song, stored } = await this.writable(songId, viewerId);
    const { document, source } = this.documentFor(song, stored, input);
    // A listener fills only a song still without lyrics when the write lands, not when it was read.
    const onlyIf = song.ownerId === viewerId ? undefined : 'absent';
    if (!(await this.repository.save(songId, { document, source, language: input.language ?? stored?.language ?? null, updatedBy: viewerId }, onlyIf))) {
      throw new NotFoundError(LYRICS_MESSAGES.notFound);
    }
    return this.view(songId, viewerId);
  }

  /** The song and its lyrics when `viewerId` may write them; the song's 404 otherwise. */
  async writable(songId: number, viewerId: number): Promise<{ song: LyricsSong; stored: StoredLyrics | undefined }> {
    const song = await this.requireSong(songId);
    const stored = await this.repository.find(songId);
    if (!mayWrite(song, stored, viewerId)) throw new NotFoundError(LYRICS_MESSAGES.notFound);
    return { song, stored };
  }

  /** Stores lyrics a job or a lookup produced, with the same rule as `writable`. */
  async store(songId: number, writerId: number | null, document: LyricsDocument, source: LyricsSource, language: string | null): Promise<boolean> {
    const song = await this.requireSong(songId);
    assertWithinLimits(document.text);
    const mayReplace = writerId !== null && writerId === song.ownerId;
    return this.repository.save(songId, { document, source, language, updatedBy: writerId }, mayReplace ? undefined : 'absent');
  }

  async export(songId: number, format: LyricsExportFormat): Promise<{ body: string; fileName: string; contentType: string }> {
    const song = await this.requireSong(songId);
    const stored = await this.repository.find(songId);
    if (!stored || stored.document.text === '') throw new NotFoundError(LYRICS_MESSAGES.noLyrics);
    const meta = {
      ...(song.title ? { title: song.title } : {}),
      ...(song.artist ? { artist: song.artist } : {}),
      ...(song.album ? { album: song.album } : {}),
      ...(stored.language ? { language: stored.language } : {}),
    };
    const body = exportLyrics(stored.document, format, song.durationSeconds, meta);
    const extension = format === 'elrc' ? 'lrc' : format;
    const stem = safeFileName(song.displayName).replace(/\.[A-Za-z0-9]{1,8}$/, '');
    return {
      body,
      fileName: `${stem}${format === 'elrc' ? '.enhanced' : ''}.${extension}`,
      contentType: format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/plain; charset=utf-8',
    };
  }

  async requireSong(songId: number): Promise<LyricsSong> {
    const song = await this.songs.song(songId);
    if (!song) throw new NotFoundError(LYRICS_MESSAGES.notFound);
    return song;
  }

  private documentFor(song: LyricsSong, stored: StoredLyrics | undefined, input: PutLyricsInput): { document: LyricsDocument; source: LyricsSource } {
    const isFile = input.transcript !== undefined && (looksLikeLrc(input.transcript) || looksLikeSrt(input.transcript));
    // Lyrics emptied by their uploader are none: what comes next is an import, not an edit.
    const source: LyricsSource = hasLyrics(stored) ? 'edited' : 'imported';
    if (input.transcript !== undefined && !isFile) assertWithinLimits(input.transcript);
    if (input.words !== undefined) assertWordsWithinSong(input.words, song.durationSeconds);
    if (input.words !== undefined && input.transcript !== undefined) {
      const text = normaliseLyricsText(input.transcript);
      assertWithinLimits(text);
      const words = sungWords(input.words);
      if (lineTokens(text).flat().length !== words.length) throw new ValidationError(LYRICS_MESSAGES.wordsMismatch);
      // Lines the new text keeps unchanged keep their own times (headers have no words to carry them).
      return { document: { ...editDocument(stored?.document ?? null, text, song.durationSeconds), words }, source };
    }
    if (input.words !== undefined) return { document: wordsOnText(stored?.document, sungWords(input.words), song.durationSeconds), source };
    const transcript = input.transcript ?? '';
    if (isFile) {
      const imported = importLyrics(transcript).document;
      assertWithinLimits(imported.text);
      // An ELRC's words are held to the same rule as the editor's: the editor could not save them.
      if (imported.words) assertWordsWithinSong(imported.words, song.durationSeconds);
      return { document: imported, source: 'imported' };
    }
    return { document: editDocument(stored?.document ?? null, transcript, song.durationSeconds), source };
  }
}

function mayWrite(song: LyricsSong, stored: StoredLyrics | undefined, viewerId: number): boolean {
  return song.ownerId === viewerId || !hasLyrics(stored);
}

function hasLyrics(stored: StoredLyrics | undefined): boolean {
  return stored !== undefined && stored.document.text !== '';
}

function assertWithinLimits(text: string): void {
  if (text.length > LYRICS_TEXT_MAX) throw new ValidationError(LYRICS_MESSAGES.tooLong);
  if (splitLines(text).length > LYRICS_LINES_MAX) throw new ValidationError(LYRICS_MESSAGES.tooManyLines);
}

function assertWordsWithinSong(words: readonly Word[], durationSeconds: number | null): void {
  if (durationSeconds === null || !(durationSeconds > 0)) return;
  if (words.some((word) => word.end > durationSeconds + WORD_END_SLACK_SECONDS)) throw new ValidationError(LYRICS_MESSAGES.wordsPastEnd);
}

/**
 * Words sent without text are timings of the text's words: as many as the text has, they
 * also give its spelling, line by line; fewer or more, each must name a word of the text and
 * only its times change. The text loses nothing: changing it takes the text itself.
 */
function wordsOnText(previous: LyricsDocument | undefined, words: Word[], durationSeconds: number | null): LyricsDocument {
  if (!previous || previous.text === '') return documentFromWords(words);
  const tokens = lineTokens(previous.text);
  if (tokens.flat().length === words.length) {
    let cursor = 0;
    const text = splitLines(previous.text)
      .map((line, index) => {
        const count = tokens[index]!.length;
        if (count === 0) return line;
        const lineWords = words.slice(cursor, cursor + count).map((word) => word.text);
        cursor += count;
        return lineWords.join(' ');
      })
      .join('\n');
    return { text, lineTimes: previous.lineTimes, words };
  }
  const timed = timeTokens(documentWords(previous, durationSeconds), words);
  if (timed.unmatched.length > 0) {
    const named = timed.unmatched
      .slice(0, 5)
      .map((word) => `"${word.text}"`)
      .join(', ');
    throw new ValidationError(LYRICS_MESSAGES.wordsNotInText.replace('{words}', timed.unmatched.length > 5 ? `${named}…` : named));
  }
  return { text: previous.text, lineTimes: previous.lineTimes, words: timed.words };
}
