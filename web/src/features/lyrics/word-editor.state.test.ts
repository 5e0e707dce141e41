import { describe, expect, it } from 'vitest';
import { initialHistory, isDirty, plainWords, UNDO_LIMIT, wordsReducer, wordsToSave, type WordAction, type WordHistory } from './word-editor.state';
import { parseTypedTime, wordProblems } from './word-problems';

const three = [
  { text: 'hello', start: 1, end: 1.5 },
  { text: 'bright', start: 1.6, end: 2.2 },
  { text: 'world', start: 2.3, end: 3 },
];

function run(history: WordHistory, ...actions: WordAction[]): WordHistory {
  return actions.reduce(wordsReducer, history);
}

const keyOf = (history: WordHistory, index: number) => history.present[index]!.key;

describe('word editor state', () => {
  it('adds SPEC 3\'s new word: "New", previous end + 0.1, 0.4 s long; at 0 when empty', () => {
    const empty = run(initialHistory(), { type: 'add' });
    expect(plainWords(empty.present)).toEqual([{ text: 'New', start: 0, end: 0.4 }]);
    const afterFirst = run(initialHistory(three), { type: 'add', afterKey: 'w0' });
    expect(plainWords(afterFirst.present)[1]).toEqual({ text: 'New', start: 1.6, end: 2 });
    const atEnd = run(initialHistory(three), { type: 'add' });
    expect(plainWords(atEnd.present).at(-1)).toEqual({ text: 'New', start: 3.1, end: 3.5 });
    expect(new Set(atEnd.present.map((word) => word.key)).size).toBe(4);
  });

  it('adds inside the song when the words already reach its end (issue 37): in the widest gap, valid, and marked to be shown', () => {
    // A fully timed 3.1 s song: after "world" (ends at 3) there is no room for 0.4 s.
    const added = run(initialHistory(three), { type: 'add', duration: 3.1 });
    const words = plainWords(added.present);
    const word = words.find((candidate) => candidate.text === 'New')!;
    // The widest stretch no word covers is the first second: the word goes there, in time order.
    expect(word).toEqual({ text: 'New', start: 0, end: 0.4 });
    expect(words.map((candidate) => candidate.text)).toEqual(['New', 'hello', 'bright', 'world']);
    expect(words.every((candidate) => wordProblems(candidate, 3.1).length === 0)).toBe(true);
    expect(added.added).toBe(added.present[0]!.key);
    expect(isDirty(added)).toBe(true);

    // Between two words when that is the widest gap: a breath after the one before.
    const spaced = [
      { text: 'a', start: 0, end: 1 },
      { text: 'b', start: 2, end: 3 },
    ];
    const between = plainWords(run(initialHistory(spaced), { type: 'add', afterKey: 'w1', duration: 3 }).present);
    expect(between[1]).toEqual({ text: 'New', start: 1.1, end: 1.5 });

    // Words cover every moment: the song's last 0.4 s, still inside it.
    const packed = [{ text: 'all', start: 0, end: 5 }];
    const last = plainWords(run(initialHistory(packed), { type: 'add', duration: 5 }).present);
    expect(last.at(-1)).toEqual({ text: 'New', start: 4.6, end: 5 });
    expect(last.every((candidate) => wordProblems(candidate, 5).length === 0)).toBe(true);

    // Room after the chosen word: SPEC 3's place, as before.
    expect(plainWords(run(initialHistory(three), { type: 'add', duration: 60 }).present).at(-1)).toEqual({ text: 'New', start: 3.1, end: 3.5 });
  });

  it('deletes the chosen words', () => {
    const history = run(initialHistory(three), { type: 'remove', keys: ['w0', 'w2'] });
    expect(plainWords(history.present)).toEqual([three[1]]);
  });

  it('splits a phrase at its spaces, sharing the time by length, and a single word in two halves', () => {
    const phrase = run(initialHistory([{ text: 'ab cdef', start: 0, end: 3 }]), { type: 'split', key: 'w0' });
    expect(plainWords(phrase.present)).toEqual([
      { text: 'ab', start: 0, end: 1 },
      { text: 'cdef', start: 1, end: 3 },
    ]);
    const word = run(initialHistory(three), { type: 'split', key: 'w1' });
    expect(plainWords(word.present).slice(1, 3)).toEqual([
      { text: 'bri', start: 1.6, end: 1.9 },
      { text: 'ght', start: 1.9, end: 2.2 },
    ]);
    expect(new Set(word.present.map((w) => w.key)).size).toBe(4);
  });

  it('merges a word with the next one; the last word has nothing to merge with', () => {
    const merged = run(initialHistory(three), { type: 'merge', key: 'w0' });
    expect(plainWords(merged.present)).toEqual([{ text: 'hello bright', start: 1, end: 2.2 }, three[2]]);
    const last = initialHistory(three);
    expect(run(last, { type: 'merge', key: 'w2' })).toBe(last);
  });

  it('shifts all words or a selection, never before 0', () => {
    const all = run(initialHistory(three), { type: 'shift', keys: null, seconds: 0.25 });
    expect(plainWords(all.present).map((word) => word.start)).toEqual([1.25, 1.85, 2.55]);
    const some = run(initialHistory(three), { type: 'shift', keys: ['w2'], seconds: -0.2 });
    expect(plainWords(some.present).map((word) => [word.start, word.end])).toEqual([
      [1, 1.5],
      [1.6, 2.2],
      [2.1, 2.8],
    ]);
    const early = run(initialHistory(three), { type: 'shift', keys: null, seconds: -5 });
    expect(plainWords(early.present)[0]).toEqual({ text: 'hello', start: 0, end: 0.5 });
  });

  it('reorders a word moved past its neighbour (a drag), but not while its time is typed', () => {
    const dragged = run(initialHistory(three), { type: 'change', key: 'w0', patch: { start: 2.5, end: 2.8 } });
    expect(dragged.present.map((word) => word.text)).toEqual(['bright', 'world', 'hello']);
    const typed = run(initialHistory(three), { type: 'change', key: 'w0', patch: { start: 2.5 }, group: 'start:w0' });
    expect(typed.present.map((word) => word.text)).toEqual(['hello', 'bright', 'world']);
  });

  it('undoes and redoes; a run of keystrokes in one field is one step', () => {
    let history = initialHistory(three);
    history = run(
      history,
      { type: 'change', key: 'w0', patch: { text: 'h' }, group: 'text:w0' },
      { type: 'change', key: 'w0', patch: { text: 'hi' }, group: 'text:w0' },
      { type: 'remove', keys: ['w1'] },
    );
    expect(history.present.map((word) => word.text)).toEqual(['hi', 'world']);
    history = run(history, { type: 'undo' });
    expect(history.present.map((word) => word.text)).toEqual(['hi', 'bright', 'world']);
    history = run(history, { type: 'undo' });
    expect(history.present.map((word) => word.text)).toEqual(['hello', 'bright', 'world']);
    expect(run(history, { type: 'undo' })).toBe(history);
    history = run(history, { type: 'redo' }, { type: 'redo' });
    expect(history.present.map((word) => word.text)).toEqual(['hi', 'world']);
    expect(run(history, { type: 'redo' })).toBe(history);
    // A new edit after undo forgets the steps that were undone.
    history = run(history, { type: 'undo' }, { type: 'add' });
    expect(history.future).toEqual([]);
  });

  it('keeps at most UNDO_LIMIT steps', () => {
    let history = initialHistory();
    for (let i = 0; i < UNDO_LIMIT + 20; i += 1) history = wordsReducer(history, { type: 'add' });
    expect(history.past).toHaveLength(UNDO_LIMIT);
  });

  it('is dirty until saved, and clean again when an edit is undone', () => {
    let history = run(initialHistory(three), { type: 'change', key: 'w0', patch: { text: 'x' } });
    expect(isDirty(history)).toBe(true);
    history = run(history, { type: 'undo' });
    expect(isDirty(history)).toBe(false);
    history = run(history, { type: 'redo' }, { type: 'saved' });
    expect(isDirty(history)).toBe(false);
    expect(keyOf(history, 0)).toBe('w0');
  });
});

describe('word problems', () => {
  it('accepts a good word and names what is wrong with a bad one', () => {
    expect(wordProblems({ text: 'la', start: 1, end: 2 }, 180)).toEqual([]);
    expect(wordProblems({ text: 'la', start: -1, end: 2 }, 180)).toEqual(['wordTimeInvalid']);
    expect(wordProblems({ text: 'la', start: Number.NaN, end: 2 }, 180)).toEqual(['wordTimeInvalid']);
    expect(wordProblems({ text: 'la', start: 3, end: 2 }, 180)).toEqual(['wordEndBeforeStart']);
    expect(wordProblems({ text: 'la', start: 179, end: 181 }, 180)).toEqual(['wordPastSongEnd']);
    expect(wordProblems({ text: 'la', start: 179, end: 181 }, null)).toEqual([]);
    expect(wordProblems({ text: 'x'.repeat(201), start: 0, end: 1 }, null)).toEqual(['wordTextTooLong']);
  });

  it('reads typed times: seconds from 0, a comma as the decimal point, nothing else', () => {
    expect(parseTypedTime('1.5')).toBe(1.5);
    expect(parseTypedTime(' 2,25 ')).toBe(2.25);
    expect(parseTypedTime('.5')).toBe(0.5);
    expect(parseTypedTime('3.')).toBe(3);
    for (const bad of ['', '-1', 'abc', '1e3', '1.2.3', '999999']) expect(parseTypedTime(bad)).toBeNull();
  });
});

describe('what Save sends', () => {
  const text = '[Verse]\nhello bright\nworld\n\n[Chorus]\nla la';
  const words = [
    { text: 'hello', start: 1, end: 1.5 },
    { text: 'bright', start: 1.6, end: 2.2 },
    { text: 'world', start: 2.3, end: 3 },
    { text: 'la', start: 5, end: 5.5 },
    { text: 'la', start: 5.5, end: 6 },
  ];

  it('sends the words alone while they still spell the text', () => {
    const history = run(initialHistory(words), { type: 'change', key: 'w1', patch: { start: 1.7 } });
    expect(wordsToSave(text, history, words)).toEqual({ words: plainWords(history.present), removedLines: 0 });
  });

  it('sends the text with every line kept when a word is added, changed or split', () => {
    const history = run(initialHistory(words), { type: 'add', afterKey: 'w2' }, { type: 'change', key: 'w3', patch: { text: 'lo' } });
    expect(wordsToSave(text, history, words)).toMatchObject({ transcript: '[Verse]\nhello bright\nworld New\n\n[Chorus]\nlo la', removedLines: 0 });
    // A word typed with a space is two words, as the text will have them, in its line.
    const spaced = run(initialHistory(words), { type: 'change', key: 'w2', patch: { text: 'wide world' } });
    const save = wordsToSave(text, spaced, words);
    expect(save.transcript).toBe('[Verse]\nhello bright\nwide world\n\n[Chorus]\nla la');
    expect(save.words.map((word) => word.text)).toEqual(['hello', 'bright', 'wide', 'world', 'la', 'la']);
    // The second half of a split stays beside the first.
    const split = run(initialHistory(words), { type: 'split', key: 'w2' });
    expect(wordsToSave(text, split, words).transcript).toBe('[Verse]\nhello bright\nwor ld\n\n[Chorus]\nla la');
  });

  it('drops only a line whose words were all deleted, and counts it', () => {
    const history = run(initialHistory(words), { type: 'remove', keys: ['w2'] });
    expect(wordsToSave(text, history, words)).toMatchObject({ transcript: '[Verse]\nhello bright\n\n[Chorus]\nla la', removedLines: 1 });
  });

  it('builds the lines from the words when the song has no lyrics', () => {
    expect(wordsToSave('', initialHistory(words), [])).toEqual({ words, removedLines: 0 });
  });

  it('follows the words the server stored after a save', () => {
    const spaced = run(initialHistory(words), { type: 'change', key: 'w2', patch: { text: 'wide world' } });
    const stored = wordsToSave(text, spaced, words).words;
    const after = run(spaced, { type: 'saved', stored });
    expect(plainWords(after.present)).toEqual(stored);
    expect(isDirty(after)).toBe(false);
    const same = run(initialHistory(words), { type: 'change', key: 'w0', patch: { start: 0.9 } });
    const kept = run(same, { type: 'saved', stored: plainWords(same.present) });
    expect(kept.past).toHaveLength(1);
    expect(isDirty(kept)).toBe(false);
  });
});
