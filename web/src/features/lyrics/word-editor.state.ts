import { lineTokens } from '@encore/common/lyrics-document.rules';
import { sungWords, textWithWords } from '@encore/common/lyrics-words.rules';
import {
  NEW_WORD_DURATION_SECONDS,
  NEW_WORD_GAP_SECONDS,
  NEW_WORD_TEXT,
  newWordAfter,
  WORD_TIME_MAX,
  WORD_TIME_MIN,
  type Word,
} from '@encore/common/words.contract';

/**
 * The word-timing editor's draft (SPEC 2, 4, 9): the words being edited, with undo and redo
 * within the session. Pure: a reducer the page runs with `useReducer`, tested on its own.
 */

/** A word in the editor: SPEC 3's Word plus a stable key (rows, waveform regions, selection). */
export interface EditorWord extends Word {
  key: string;
}

export interface WordHistory {
  past: EditorWord[][];
  present: EditorWord[];
  future: EditorWord[][];
  /** The words as last loaded or saved: the draft is dirty while `present` differs. */
  saved: EditorWord[];
  /** Edits of one field in a row (typing a word) make one undo step. */
  lastGroup: string | null;
  /** Next key number. */
  nextKey: number;
  /** The word Add made last: the list brings it into view. */
  added: string | null;
}

/** How many steps back undo reaches; enough for a session, bounded for memory. */
export const UNDO_LIMIT = 200;

export type WordAction =
  | { type: 'load'; words: readonly Word[] }
  /** Saved; `stored` (the words as the server keeps them) starts the editor over when they differ from the draft. */
  | { type: 'saved'; stored?: readonly Word[] }
  /** Text or times of one word; `group` merges a run of edits (keystrokes) into one undo step. */
  | { type: 'change'; key: string; patch: Partial<Word>; group?: string }
  /**
   * A new word after `afterKey` (or at the end): SPEC 3's 'New', previous end + 0.1, 0.4 s; when
   * that would end past the song's `duration`, in the song's widest gap instead (issue 37).
   */
  | { type: 'add'; afterKey?: string | null; duration?: number | null }
  | { type: 'remove'; keys: readonly string[] }
  | { type: 'split'; key: string }
  /** Joins a word with the one after it. */
  | { type: 'merge'; key: string }
  /** Moves the chosen words (all when `keys` is null) by `seconds`; never before 0. */
  | { type: 'shift'; keys: readonly string[] | null; seconds: number }
  | { type: 'undo' }
  | { type: 'redo' };

/** Times kept to the millisecond: a drag or a tap gives more digits than anyone can hear. */
export function roundTime(seconds: number): number {
  return Math.round(Math.min(WORD_TIME_MAX, Math.max(WORD_TIME_MIN, seconds)) * 1000) / 1000;
}

function keyed(words: readonly Word[], firstKey: number): EditorWord[] {
  return words.map((word, index) => ({ text: word.text, start: word.start, end: word.end, key: `w${firstKey + index}` }));
}

export function initialHistory(words: readonly Word[] = []): WordHistory {
  const present = keyed(words, 0);
  return { past: [], present, future: [], saved: present, lastGroup: null, nextKey: words.length, added: null };
}

/** The words as they go to the server. */
export function plainWords(words: readonly EditorWord[]): Word[] {
  return words.map(({ text, start, end }) => ({ text, start, end }));
}

/** What Save sends: the words, and the text they make when it is not the lyrics' text any more. */
export interface WordsSave {
  words: Word[];
  /** The lyrics text with the edited words: every line kept but those whose words were all deleted. */
  transcript?: string;
  /** Sung lines the new text no longer has (all their words deleted). */
  removedLines: number;
}

/**
 * The save of the editor's words for lyrics `text`, whose words (one per word of the text, in
 * order) are `textWords`: words alone while they still spell the text (the server then only
 * changes times), else the text rewritten with them beside them, each word in the line of the
 * word it was, so that nothing but what the user deleted leaves the lyrics.
 */
export function wordsToSave(text: string, history: Pick<WordHistory, 'present' | 'saved'>, textWords: readonly Word[]): WordsSave {
  const tokens = tokensOf(history.saved, textWords);
  const sung = sungWords(history.present.map((word) => ({ text: word.text, start: word.start, end: word.end, token: tokens?.get(word.key) })));
  const words = sung.map(({ text: wordText, start, end }) => ({ text: wordText, start, end }));
  if (text === '') return { words, removedLines: 0 };
  const next = textWithWords(text, sung);
  if (next === text) return { words, removedLines: 0 };
  const sungLines = (lyrics: string) => lineTokens(lyrics).filter((line) => line.length > 0).length;
  return { words, transcript: next, removedLines: Math.max(0, sungLines(text) - sungLines(next)) };
}

/** Which word of the text each saved word is: the saved words are the text's words, in order, when loaded or saved. */
function tokensOf(saved: readonly EditorWord[], textWords: readonly Word[]): Map<string, number> | null {
  if (saved.length !== textWords.length || saved.some((word, index) => word.text !== textWords[index]!.text)) return null;
  return new Map(saved.map((word, index) => [word.key, index]));
}

function sameWords(a: readonly Word[], b: readonly Word[]): boolean {
  return a.length === b.length && a.every((word, index) => word.text === b[index]!.text && word.start === b[index]!.start && word.end === b[index]!.end);
}

export function isDirty(history: WordHistory): boolean {
  if (history.present === history.saved) return false;
  if (history.present.length !== history.saved.length) return true;
  return history.present.some((word, index) => {
    const saved = history.saved[index]!;
    return word.text !== saved.text || word.start !== saved.start || word.end !== saved.end;
  });
}

/** Words ordered by start (stable): a word moved past its neighbour takes its place in the list. */
/**
 * A new word inside a song of `duration` seconds whose words leave no room after the chosen one:
 * in the widest stretch no word covers (before the first, between two, after the last), a gap's
 * breath after the word before it and at most SPEC 3's 0.4 s long; in the song's last 0.4 s when
 * words cover it all.
 */
export function wordInWidestGap(words: readonly Word[], duration: number): Word {
  const end = Math.floor(duration * 1000) / 1000;
  let best = { start: 0, length: 0 };
  let covered = 0;
  for (const word of [...words].sort((a, b) => a.start - b.start)) {
    if (word.start - covered > best.length) best = { start: covered, length: word.start - covered };
    covered = Math.max(covered, word.end);
  }
  if (end - covered > best.length) best = { start: covered, length: end - covered };
  if (best.length <= 0) return { text: NEW_WORD_TEXT, start: roundTime(Math.max(0, end - NEW_WORD_DURATION_SECONDS)), end };
  const breath = best.start > 0 ? Math.min(NEW_WORD_GAP_SECONDS, best.length / 4) : 0;
  const start = roundTime(best.start + breath);
  return { text: NEW_WORD_TEXT, start, end: Math.min(end, roundTime(start + Math.min(NEW_WORD_DURATION_SECONDS, best.length - breath))) };
}

function ordered(words: EditorWord[]): EditorWord[] {
  return words
    .map((word, index) => ({ word, index }))
    .sort((a, b) => a.word.start - b.word.start || a.index - b.index)
    .map(({ word }) => word);
}

/** Splits a word: at its spaces when it has several (time shared by length), else in two halves. */
function splitWord(word: EditorWord, nextKey: number): EditorWord[] {
  const parts = word.text.trim().split(/\s+/u).filter(Boolean);
  const duration = Math.max(0, word.end - word.start);
  if (parts.length > 1) {
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    let start = word.start;
    return parts.map((text, index) => {
      const end = index === parts.length - 1 ? word.end : roundTime(start + (duration * text.length) / total);
      const piece = { text, start, end, key: index === 0 ? word.key : `w${nextKey + index - 1}` };
      start = end;
      return piece;
    });
  }
  const middle = roundTime(word.start + duration / 2);
  // One word: its letters are shared between the halves, or the second half is a new word.
  const text = parts[0] ?? '';
  const cut = Math.ceil(text.length / 2);
  const [first, second] = text.length > 1 ? [text.slice(0, cut), text.slice(cut)] : [text, NEW_WORD_TEXT];
  return [
    { ...word, text: first, end: middle },
    { text: second, start: middle, end: word.end, key: `w${nextKey}` },
  ];
}

function commit(history: WordHistory, present: EditorWord[], group: string | null = null, nextKey = history.nextKey): WordHistory {
  if (group !== null && group === history.lastGroup) {
    return { ...history, present, future: [], nextKey };
  }
  const past = [...history.past, history.present].slice(-UNDO_LIMIT);
  return { ...history, past, present, future: [], lastGroup: group, nextKey };
}

export function wordsReducer(history: WordHistory, action: WordAction): WordHistory {
  const words = history.present;
  switch (action.type) {
    case 'load':
      return initialHistory(action.words);
    case 'saved':
      // The server keeps one word per word of the text, in sung order: the editor follows it.
      if (action.stored && !sameWords(action.stored, history.present)) return initialHistory(action.stored);
      return { ...history, saved: history.present, lastGroup: null };
    case 'change': {
      const index = words.findIndex((word) => word.key === action.key);
      if (index < 0) return history;
      const changed = { ...words[index]!, ...action.patch };
      const next = words.map((word, i) => (i === index ? changed : word));
      // Times typed in order stay in order; a start moved past a neighbour reorders the list.
      const timesChanged = action.patch.start !== undefined || action.patch.end !== undefined;
      return commit(history, timesChanged && action.group === undefined ? ordered(next) : next, action.group ?? null);
    }
    case 'add': {
      const afterIndex = action.afterKey ? words.findIndex((word) => word.key === action.afterKey) : words.length - 1;
      const key = `w${history.nextKey}`;
      const wanted = newWordAfter(afterIndex >= 0 ? words[afterIndex] : undefined);
      const duration = action.duration ?? null;
      if (duration === null || duration <= 0 || wanted.end <= duration) {
        const next = [...words.slice(0, afterIndex + 1), { ...wanted, key }, ...words.slice(afterIndex + 1)];
        return { ...commit(history, next, null, history.nextKey + 1), added: key };
      }
      const next = ordered([...words, { ...wordInWidestGap(words, duration), key }]);
      return { ...commit(history, next, null, history.nextKey + 1), added: key };
    }
    case 'remove': {
      const gone = new Set(action.keys);
      const next = words.filter((word) => !gone.has(word.key));
      return next.length === words.length ? history : commit(history, next);
    }
    case 'split': {
      const index = words.findIndex((word) => word.key === action.key);
      if (index < 0) return history;
      const pieces = splitWord(words[index]!, history.nextKey);
      const next = [...words.slice(0, index), ...pieces, ...words.slice(index + 1)];
      return commit(history, next, null, history.nextKey + pieces.length - 1);
    }
    case 'merge': {
      const index = words.findIndex((word) => word.key === action.key);
      const first = words[index];
      const second = words[index + 1];
      if (!first || !second) return history;
      const merged: EditorWord = {
        key: first.key,
        text: [first.text.trim(), second.text.trim()].filter(Boolean).join(' '),
        start: Math.min(first.start, second.start),
        end: Math.max(first.end, second.end),
      };
      return commit(history, [...words.slice(0, index), merged, ...words.slice(index + 2)]);
    }
    case 'shift': {
      if (!Number.isFinite(action.seconds) || action.seconds === 0) return history;
      const chosen = action.keys === null ? null : new Set(action.keys);
      const moving = words.filter((word) => chosen === null || chosen.has(word.key));
      if (moving.length === 0) return history;
      // Never before 0: an earlier shift stops where the first chosen word reaches the start.
      const earliest = Math.min(...moving.map((word) => word.start));
      const seconds = Math.max(action.seconds, -earliest);
      if (seconds === 0) return history;
      const next = words.map((word) =>
        chosen === null || chosen.has(word.key) ? { ...word, start: roundTime(word.start + seconds), end: roundTime(word.end + seconds) } : word,
      );
      return commit(history, ordered(next));
    }
    case 'undo': {
      const previous = history.past.at(-1);
      if (!previous) return history;
      return { ...history, past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future], lastGroup: null };
    }
    case 'redo': {
      const [next, ...rest] = history.future;
      if (!next) return history;
      return { ...history, past: [...history.past, history.present], present: next, future: rest, lastGroup: null };
    }
  }
}
