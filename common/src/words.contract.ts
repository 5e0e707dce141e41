import { z } from 'zod';
import { text } from './input.contract.js';

/**
 * SPEC 3's Word: a sung word with its start and end in seconds. Shared by the lyrics (word
 * timings, the word-timing editor, `transcribe_song`) and Song2Clip (the clip's words).
 */

/** SPEC 5 and 9: word times are numbers of seconds, minimum 0, edited in steps of 0.1. */
export const WORD_TIME_MIN = 0;
export const WORD_TIME_STEP = 0.1;
/** SPEC 3 and 9: a new word is 'New', starts 0.1 s after the previous word's end and lasts 0.4 s. */
export const NEW_WORD_TEXT = 'New';
export const NEW_WORD_GAP_SECONDS = 0.1;
export const NEW_WORD_DURATION_SECONDS = 0.4;
/** Bounds that keep one request's words sane: a long song has a few thousand words. */
export const WORDS_MAX = 20_000;
export const WORD_TEXT_MAX = 200;
/** No song is longer than this (24 h); a time past it is a mistake, not a song. */
export const WORD_TIME_MAX = 86_400;

const timeMessage = 'Word times must be numbers of seconds from 0';

export const wordSchema = z
  .object({
    text: text('A word', 'A word must have text').max(WORD_TEXT_MAX, { error: `A word is at most ${WORD_TEXT_MAX} characters` }),
    start: z
      .number({ error: timeMessage })
      .finite({ error: timeMessage })
      .min(WORD_TIME_MIN, { error: timeMessage })
      .max(WORD_TIME_MAX, { error: timeMessage }),
    end: z.number({ error: timeMessage }).finite({ error: timeMessage }).min(WORD_TIME_MIN, { error: timeMessage }).max(WORD_TIME_MAX, { error: timeMessage }),
  })
  .refine((word) => word.end >= word.start, { error: "A word's end must not be before its start" });

export type Word = z.infer<typeof wordSchema>;

export const wordsSchema = z.array(wordSchema).max(WORDS_MAX, { error: `At most ${WORDS_MAX} words` });

/** SPEC 3: the word added after `previous` (or at 0 when there is none). */
export function newWordAfter(previous: Word | undefined): Word {
  const start = previous ? roundToTenth(previous.end + NEW_WORD_GAP_SECONDS) : 0;
  return { text: NEW_WORD_TEXT, start, end: roundToTenth(start + NEW_WORD_DURATION_SECONDS) };
}

function roundToTenth(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
