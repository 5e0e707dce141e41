import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LyricsModel, LyricsTranscriptResponse } from '@encore/common/lyrics.contract';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { getLyrics, putLyrics, tempDir, toneMp3 } from './lyrics-test-kit.js';

const ELRC = '[00:01.00]<00:01.00>Old <00:01.50>words <00:02.00>here <00:02.50>\n[00:04.00]<00:04.00>Second <00:04.80>old <00:05.40>line <00:06.00>\n';
const LRC = '[00:02.00]New first\n[00:06.50]New second\n[00:08.00]New third\n';
const SRT = '1\n00:00:01,000 --> 00:00:03,000\nCue one\n\n2\n00:00:05,000 --> 00:00:07,500\nCue two\n';

const starts = (model: LyricsModel) => model.lines.map((line) => line.startTime);

/**
 * Issue 11: importing over existing lyrics (`PUT /files/{id}/lyrics` with LRC, ELRC, SRT, plain
 * text or words) replaces them wholly, keeping old timings only where the edit rule aligns them;
 * only the uploader may, anyone may give lyrics to a song without; and files in the wild with
 * broken, repeated, overlapping or out-of-order time tags read into ordered, sane timings.
 */
describe.each(localSetups)('lyrics: importing over lyrics, and messy files ($engine)', (setup) => {
  let t: LibraryApp;
  let owner: string;
  let other: string;
  let replaced: Song;
  let guarded: Song;
  let bare: Song;
  let messy: Song;
  let wild: Song;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  const put = async (token: string, song: Song, payload: unknown): Promise<LyricsTranscriptResponse> => {
    const response = await putLyrics(t, token, song.id, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LyricsTranscriptResponse>();
  };

  beforeAll(async () => {
    temp = await tempDir();
    const file = await toneMp3(temp.dir, 'Ten Seconds.mp3', 10);
    t = await startLibraryApp(setup, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    owner = await account(t, 'importowner');
    other = await account(t, 'importother');
    replaced = (await upload(t, owner, file, { fileName: 'Replaced.mp3' })).song;
    guarded = (await upload(t, owner, file, { fileName: 'Guarded.mp3' })).song;
    bare = (await upload(t, owner, file, { fileName: 'Bare.mp3' })).song;
    messy = (await upload(t, owner, file, { fileName: 'Messy.mp3' })).song;
    wild = (await upload(t, owner, file, { fileName: 'Wild.mp3' })).song;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await temp?.cleanup();
  });

  it('replaces lyrics wholly when the uploader imports LRC, ELRC, SRT or words over them: no old timing is left', async () => {
    expect((await put(owner, replaced, { transcript: ELRC })).timing).toBe('word');

    const lrc = await put(owner, replaced, { transcript: LRC });
    expect(lrc).toMatchObject({ transcript: 'New first\nNew second\nNew third', timing: 'line', words: null, source: 'imported' });
    expect(starts(lrc)).toEqual([2, 6.5, 8]);
    const exported = await t.app.inject({ url: `/api/files/${replaced.id}/lyrics/export?format=elrc`, headers: bearer(owner) });
    expect(exported.body).not.toMatch(/<\d\d:\d\d/);

    const elrc = await put(owner, replaced, { transcript: '[00:03.00]<00:03.00>Fresh <00:03.40>start <00:04.00>\n' });
    expect(elrc).toMatchObject({ transcript: 'Fresh start', timing: 'word', source: 'imported' });
    expect(elrc.words).toEqual([
      { text: 'Fresh', start: 3, end: 3.4 },
      { text: 'start', start: 3.4, end: 4 },
    ]);
    expect(starts(elrc)).toEqual([3]);

    const srt = await put(owner, replaced, { transcript: SRT });
    expect(srt).toMatchObject({ transcript: 'Cue one\nCue two', timing: 'line', words: null, source: 'imported' });
    // The cues' own times, the last one's end included.
    expect(srt.lines.map((line) => [line.startTime, line.endTime])).toEqual([
      [1, 3],
      [5, 7.5],
    ]);

    // Words of another text come with it (words alone must be in the text): the cues' times are gone.
    const words = [
      { text: 'Only', start: 0.5, end: 1 },
      { text: 'these', start: 1, end: 1.6 },
      { text: 'words', start: 1.6, end: 2.2 },
    ];
    const fromWords = await put(owner, replaced, { transcript: 'Only these words', words });
    expect(fromWords).toMatchObject({ transcript: 'Only these words', timing: 'word', words, source: 'edited' });
    expect(starts(fromWords)).toEqual([0.5]);

    const both = await put(owner, replaced, {
      transcript: 'Both given\nTogether',
      words: [
        { text: 'Both', start: 1, end: 1.5 },
        { text: 'given', start: 1.5, end: 2 },
        { text: 'Together', start: 6, end: 7 },
      ],
    });
    expect(both).toMatchObject({ transcript: 'Both given\nTogether', timing: 'word' });
    expect(starts(both)).toEqual([1, 6]);
  });

  it('keeps old line times through plain text only where a line is unchanged (the edit rule)', async () => {
    await put(owner, replaced, { transcript: '[00:02.00]Keep this line\n[00:07.50]Drop this one\n' });
    const edited = await put(owner, replaced, { transcript: 'Keep this line\nSomething else' });
    expect(edited).toMatchObject({ timing: 'line', source: 'edited' });
    expect(edited.lines[0]!.startTime).toBe(2);
    expect(edited.lines[1]!.startTime).not.toBe(7.5);

    await put(owner, replaced, { transcript: '[00:02.00]Keep this line\n[00:07.50]Drop this one\n' });
    const rewritten = await put(owner, replaced, { transcript: 'Entirely new\nLyrics now' });
    expect(rewritten).toMatchObject({ timing: 'none', words: null });
    // The rule's times for two lines of a 10 s song, nothing of 2 s or 7.5 s.
    expect(rewritten.lines[0]!.startTime).toBe(0);
    expect(rewritten.lines[1]!.startTime).toBeCloseTo(rewritten.durationSeconds / 2, 2);
  });

  it('answers another user 404 for every kind of import over existing lyrics, and changes nothing', async () => {
    await put(owner, guarded, { transcript: ELRC });
    const before = await getLyrics(t, owner, guarded.id);
    const payloads: unknown[] = [
      { transcript: LRC },
      { transcript: '[00:03.00]<00:03.00>Fresh <00:03.40>start <00:04.00>\n' },
      { transcript: SRT },
      { transcript: 'Plain text from someone else' },
      { transcript: '' },
      { words: [{ text: 'Mine', start: 0, end: 1 }] },
      {
        transcript: 'Mine now',
        words: [
          { text: 'Mine', start: 0, end: 1 },
          { text: 'now', start: 1, end: 2 },
        ],
      },
    ];
    for (const payload of payloads) {
      const response = await putLyrics(t, other, guarded.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Song not found');
    }
    expect(await getLyrics(t, owner, guarded.id)).toEqual(before);
    expect((await getLyrics(t, other, guarded.id)).canEdit).toBe(false);
  });

  it('lets anyone import into a song without lyrics, in any format; once it has them, only the uploader', async () => {
    const first = await put(other, bare, { transcript: LRC });
    expect(first).toMatchObject({ transcript: 'New first\nNew second\nNew third', timing: 'line', source: 'imported', canEdit: false });
    expect((await putLyrics(t, other, bare.id, { words: [{ text: 'Again', start: 0, end: 1 }] })).statusCode).toBe(404);
    expect((await getLyrics(t, owner, bare.id)).canEdit).toBe(true);

    // The uploader empties them: the song has none again, and anyone may give it some.
    const emptied = await put(owner, bare, { transcript: '' });
    expect(emptied).toMatchObject({ hasLyrics: false, transcript: '' });
    const words = [
      { text: 'Listener', start: 1, end: 1.8 },
      { text: 'words', start: 1.8, end: 2.4 },
    ];
    expect(await put(other, bare, { words })).toMatchObject({ transcript: 'Listener words', timing: 'word', words, source: 'imported' });
  });

  it('reads LRC with broken, repeated, equal and out-of-order time tags into ordered lines', async () => {
    const lrc = '[00:05.00]Third\n[00:01.00][00:07.00]Repeated\n[1:75.00]Broken tag\n[00:03.00]Second\n[00:03.00]Same time\n';
    const stored = await put(owner, messy, { transcript: lrc });
    expect(stored.timing).toBe('line');
    // The impossible time is no time: its line is kept, untimed, after the line it followed.
    expect(stored.lines.map((line) => line.text)).toEqual(['Repeated', 'Second', 'Same time', 'Third', 'Repeated', 'Broken tag']);
    const untimed = stored.lines.at(-1)!;
    expect(untimed).toMatchObject({ isHeader: false, endTime: untimed.startTime });
    expect(untimed.startTime).toBeCloseTo(stored.durationSeconds, 2);
    const timed = stored.lines.slice(0, -1);
    expect(timed.map((line) => line.text)).toEqual(['Repeated', 'Second', 'Same time', 'Third', 'Repeated']);
    expect(timed.map((line) => line.startTime)).toEqual([1, 3, 3, 5, 7]);
    for (const [index, line] of stored.lines.entries()) {
      expect(line.endTime, line.text).toBeGreaterThanOrEqual(line.startTime);
      if (index > 0) expect(line.startTime, line.text).toBeGreaterThanOrEqual(stored.lines[index - 1]!.startTime);
      expect(line.endTime).toBeLessThanOrEqual(stored.durationSeconds + 0.001);
    }
  });

  it('clamps ELRC word tags that go backwards or overlap into order, inside their line', async () => {
    const elrc = '[00:02.00]<00:02.00>one <00:01.00>two <00:06.00>three <00:05.00>\n[00:04.00]<00:04.00>four <00:03.50>five <00:04.50>\n';
    const stored = await put(owner, messy, { transcript: elrc });
    expect(stored.timing).toBe('word');
    const words = stored.words!;
    expect(words.map((word) => word.text)).toEqual(['one', 'two', 'three', 'four', 'five']);
    for (const [index, word] of words.entries()) {
      expect(word.end, word.text).toBeGreaterThanOrEqual(word.start);
      if (index > 0) expect(word.start, word.text).toBeGreaterThanOrEqual(words[index - 1]!.start);
    }
    expect(words[2]!.end).toBeLessThanOrEqual(4);
  });

  it('refuses ELRC whose words run past the song’s end, as it refuses such words from the editor, and keeps what was stored', async () => {
    const before = await getLyrics(t, owner, messy.id);
    for (const payload of [{ transcript: '[00:08.00]<00:08.00>Too <00:09.00>late <00:14.00>\n' }, { words: [{ text: 'Too', start: 8, end: 14 }] }]) {
      const response = await putLyrics(t, owner, messy.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toBe("A word's times must be within the song");
    }
    expect(await getLyrics(t, owner, messy.id)).toEqual(before);
    // Lines alone may start late (a file made for a longer cut): they are shown, not refused.
    expect((await putLyrics(t, owner, messy.id, { transcript: '[00:08.00]Late\n[00:12.00]Later\n' })).statusCode).toBe(200);
  });

  it('reads an LRC file of another project (BOM, CRLF, its own tags, offset, inline word tags, bad times, untimed lines) and exports it without made-up times', async () => {
    const file =
      '\uFEFF[id:$00000000]\r\n[ar:Nova]\r\n[t_time:(00:10)]\r\n[offset:+200]\r\nNova - Wild\r\n[00:01.200]<00:01.500>First <00:02.000>words <00:02.500>\r\n' +
      '[00:-03.00]\r\n[02:83.37]Typo line\r\n[00:04.20]Second [00:04.70]line [00:05.20]\r\n[00:06.20][00:08.20]Again\r\n[00:09.20]\r\n';
    const stored = await put(owner, wild, { transcript: file });
    expect(stored).toMatchObject({ transcript: 'Nova - Wild\nFirst words\nTypo line\nSecond line\nAgain\nAgain', timing: 'line' });
    expect(stored.lines.some((line) => line.isHeader)).toBe(false);
    expect(stored.lines.map((line) => [line.text, line.startTime, line.endTime])).toEqual([
      ['Nova - Wild', 1, 1],
      ['First words', 1, 2.3],
      ['Typo line', 2.3, 2.3],
      ['Second line', 4, 5],
      ['Again', 6, 8],
      ['Again', 8, 9],
    ]);

    const exported = async (format: string) =>
      (await t.app.inject({ url: `/api/files/${wild.id}/lyrics/export?format=${format}`, headers: bearer(owner) })).body;
    const lrc = await exported('lrc');
    expect(lrc).toContain('Nova - Wild\n[00:01.00]First words\nTypo line\n[00:04.00]Second line\n[00:06.00]Again\n[00:08.00]Again\n[00:09.00]\n');
    expect(await exported('srt')).toBe(
      '1\n00:00:01,000 --> 00:00:02,300\nFirst words\n\n2\n00:00:04,000 --> 00:00:05,000\nSecond line\n\n3\n00:00:06,000 --> 00:00:08,000\nAgain\n\n4\n00:00:08,000 --> 00:00:09,000\nAgain\n',
    );
    // The export reads back into the same lyrics, and exports the same again.
    const again = await put(owner, wild, { transcript: lrc });
    expect(again.transcript).toBe(stored.transcript);
    expect(again.lines.at(-1)).toEqual(stored.lines.at(-1));
    expect(await exported('lrc')).toBe(lrc);

    // Word tags that start after their line's own tag leave the line's start where it was.
    const late = await put(owner, wild, { transcript: '[00:01.00]<00:01.50>Late <00:02.00>start <00:02.50>\r\n[00:04.00]<00:04.40>Next <00:05.00>\r\n' });
    expect(late.timing).toBe('word');
    expect(starts(late)).toEqual([1, 4]);
    expect(late.words![0]).toEqual({ text: 'Late', start: 1.5, end: 2 });
  });
});
