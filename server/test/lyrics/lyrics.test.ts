import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LYRICS_LINES_MAX, LYRICS_TEXT_MAX, type LyricsTranscriptResponse } from '@encore/common/lyrics.contract';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { getLyrics, putLyrics, tempDir } from './lyrics-test-kit.js';

const run = promisify(execFile);

describe.each(localSetups)('lyrics: read, write, export ($engine)', (setup) => {
  let t: LibraryApp;
  let owner: string;
  let other: string;
  let song: Song;
  let second: Song;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    temp = await tempDir();
    const file = path.join(temp.dir, 'Ten Seconds.mp3');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=10',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '64k',
      '-metadata',
      'title=Ten Seconds',
      '-metadata',
      'artist=Tester',
      file,
    ]);
    t = await startLibraryApp(setup, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    owner = await account(t, 'lyricsowner');
    other = await account(t, 'lyricsother');
    song = (await upload(t, owner, file)).song;
    second = (await upload(t, owner, file, { fileName: 'Second.mp3' })).song;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await temp?.cleanup();
  });

  it('answers an empty model for a song without lyrics, timed by nothing', async () => {
    const model = await getLyrics(t, other, song.id);
    expect(model).toMatchObject({ songId: song.id, hasLyrics: false, text: '', lines: [], words: null, timing: 'none', source: null, canEdit: true });
    expect(model.durationSeconds).toBeGreaterThan(9);
  });

  it('stores plain text with headers and times its lines by the SPEC 9 rule', async () => {
    const response = await putLyrics(t, owner, song.id, { transcript: '[Verse]\nHello world\nSecond line\n\n[Chorus]\nLa la la\n' });
    expect(response.statusCode).toBe(200);
    const body = response.json<LyricsTranscriptResponse>();
    expect(body.transcript).toBe('[Verse]\nHello world\nSecond line\n\n[Chorus]\nLa la la');
    expect(body.source).toBe('imported');
    expect(body.timing).toBe('none');
    expect(body.lines[0]).toMatchObject({ isHeader: true, startTime: 0 });
    expect(body.lines.at(-1)!.endTime).toBeCloseTo(body.durationSeconds, 3);
    // The spec's song detail carries the same text.
    const detail = await t.app.inject({ url: `/api/files/${song.id}`, headers: bearer(owner) });
    expect(detail.json<Song>().transcript).toBe(body.transcript);
  });

  it('takes LRC as transcript and keeps its line times; an edit keeps the times of unchanged lines', async () => {
    const lrc = '[ti:Ten Seconds]\n[00:01.00]First line\n[00:04.50]Second line\n[00:07.00]Third line\n';
    const stored = (await putLyrics(t, owner, song.id, { transcript: lrc })).json<LyricsTranscriptResponse>();
    expect(stored.timing).toBe('line');
    expect(stored.transcript).toBe('First line\nSecond line\nThird line');
    expect(stored.lines.map((line) => line.startTime)).toEqual([1, 4.5, 7]);
    const edited = (await putLyrics(t, owner, song.id, { transcript: 'First line\nSecond line, changed\nThird line' })).json<LyricsTranscriptResponse>();
    expect(edited.source).toBe('edited');
    expect(edited.lines[0]!.startTime).toBe(1);
    expect(edited.lines[2]!.startTime).toBe(7);
  });

  it('takes ELRC with word times and exports LRC, ELRC, SRT and text as attachments', async () => {
    const elrc = '[00:01.00]<00:01.00>Hello <00:01.50>big <00:02.00>world <00:02.60>\n[00:05.00]<00:05.00>Goodbye <00:06.00>\n';
    const stored = (await putLyrics(t, owner, song.id, { transcript: elrc })).json<LyricsTranscriptResponse>();
    expect(stored.timing).toBe('word');
    expect(stored.words).toEqual([
      { text: 'Hello', start: 1, end: 1.5 },
      { text: 'big', start: 1.5, end: 2 },
      { text: 'world', start: 2, end: 2.6 },
      { text: 'Goodbye', start: 5, end: 6 },
    ]);
    const exported = await t.app.inject({ url: `/api/files/${song.id}/lyrics/export?format=elrc`, headers: bearer(other) });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    expect(exported.headers['content-disposition']).toContain('.lrc');
    expect(exported.body).toContain('[00:01.00]<00:01.00>Hello <00:01.50>big <00:02.00>world <00:02.60>');
    expect(exported.body).toContain('[ti:Ten Seconds]');
    const lrc = await t.app.inject({ url: `/api/files/${song.id}/lyrics/export?format=lrc`, headers: bearer(owner) });
    expect(lrc.body).toContain('[00:05.00]Goodbye');
    const srt = await t.app.inject({ url: `/api/files/${song.id}/lyrics/export?format=srt`, headers: bearer(owner) });
    expect(srt.body).toContain('00:00:01,000 --> ');
    const txt = await t.app.inject({ url: `/api/files/${song.id}/lyrics/export?format=txt`, headers: bearer(owner) });
    expect(txt.body).toBe('Hello big world\nGoodbye\n');
    const bad = await t.app.inject({ url: `/api/files/${song.id}/lyrics/export?format=docx`, headers: bearer(owner) });
    expect(bad.statusCode).toBe(400);
  });

  it('stores words from the timing editor on the existing text, and keeps unchanged word times through a text edit', async () => {
    const words = [
      { text: 'Hello', start: 1.1, end: 1.5 },
      { text: 'big', start: 1.5, end: 2 },
      { text: 'world', start: 2, end: 2.6 },
      { text: 'Goodbye', start: 5, end: 6 },
    ];
    const stored = (await putLyrics(t, owner, song.id, { words })).json<LyricsTranscriptResponse>();
    expect(stored.transcript).toBe('Hello big world\nGoodbye');
    expect(stored.words![0]).toEqual({ text: 'Hello', start: 1.1, end: 1.5 });
    const edited = (await putLyrics(t, owner, song.id, { transcript: 'Hello small world\nGoodbye' })).json<LyricsTranscriptResponse>();
    expect(edited.words).toEqual([
      { text: 'Hello', start: 1.1, end: 1.5 },
      { text: 'small', start: 1.5, end: 2 },
      { text: 'world', start: 2, end: 2.6 },
      { text: 'Goodbye', start: 5, end: 6 },
    ]);
  });

  it('keeps every line of plain and of line-timed lyrics when words are saved for some of them', async () => {
    const file = path.join(temp.dir, 'Ten Seconds.mp3');
    const cases = [
      { name: 'Plain words.mp3', transcript: '[Verse]\nHello world\nSecond line here\n\n[Chorus]\nLa la la' },
      { name: 'Timed words.mp3', transcript: '[00:01.00]Hello world\n[00:04.00]Second line here\n[00:07.00]La la la\n' },
    ];
    for (const { name, transcript } of cases) {
      const target = (await upload(t, owner, file, { fileName: name })).song;
      const before = (await putLyrics(t, owner, target.id, { transcript })).json<LyricsTranscriptResponse>();
      const response = await putLyrics(t, owner, target.id, {
        words: [
          { text: 'Second', start: 4.2, end: 4.6 },
          { text: 'line', start: 4.7, end: 5 },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const after = response.json<LyricsTranscriptResponse>();
      expect(after.text, name).toBe(before.text);
      expect(after.timing).toBe('word');
      expect(after.words!.map((word) => word.text)).toEqual(['Hello', 'world', 'Second', 'line', 'here', 'La', 'la', 'la']);
      expect(after.words![2]).toEqual({ text: 'Second', start: 4.2, end: 4.6 });
      // The lines no word was sent for keep the times they had.
      for (const text of ['Hello world', 'La la la']) {
        expect(after.lines.find((line) => line.text === text)!.startTime, `${name}: ${text}`).toBeCloseTo(
          before.lines.find((line) => line.text === text)!.startTime,
          2,
        );
      }
      expect((await getLyrics(t, owner, target.id)).text).toBe(before.text);
    }
  });

  it('refuses words the text does not have unless the new text comes with them, and loses nothing', async () => {
    const target = (await upload(t, owner, path.join(temp.dir, 'Ten Seconds.mp3'), { fileName: 'New word.mp3' })).song;
    await putLyrics(t, owner, target.id, { transcript: '[00:01.00]First line\n[00:05.00]Second line\n' });
    const before = await getLyrics(t, owner, target.id);
    const refused = await putLyrics(t, owner, target.id, { words: [{ text: 'New', start: 0, end: 0.4 }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('"New"');
    expect(await getLyrics(t, owner, target.id)).toEqual(before);

    const words = [
      { text: 'New', start: 0, end: 0.4 },
      { text: 'First', start: 1, end: 1.5 },
      { text: 'line', start: 1.5, end: 2 },
      { text: 'Second', start: 5, end: 5.5 },
      { text: 'line', start: 5.5, end: 6 },
    ];
    const stored = await putLyrics(t, owner, target.id, { transcript: 'New First line\nSecond line', words });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json<LyricsTranscriptResponse>()).toMatchObject({ text: 'New First line\nSecond line', words, timing: 'word' });
  });

  it('refuses bad words, oversized text and a mismatch, and loses nothing', async () => {
    const before = await getLyrics(t, owner, song.id);
    const cases: unknown[] = [
      { words: [{ text: 'a', start: -1, end: 1 }] },
      { words: [{ text: 'a', start: 2, end: 1 }] },
      { words: [{ text: 'a', start: 'x', end: 1 }] },
      { words: [{ text: 'a', start: 1, end: 99 }] },
      { transcript: 'x'.repeat(LYRICS_TEXT_MAX + 1) },
      { transcript: '[00:01.00]la la la la la la\n'.repeat(20_000) },
      { transcript: '[00:01.00]x\n'.repeat(LYRICS_LINES_MAX + 1) },
      { transcript: 'two words', words: [{ text: 'one', start: 0, end: 1 }] },
      { transcript: 'bad \u0000 char' },
      {},
    ];
    for (const payload of cases) {
      const response = await putLyrics(t, owner, song.id, payload);
      expect([400, 413], JSON.stringify(payload).slice(0, 80)).toContain(response.statusCode);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    }
    expect(await getLyrics(t, owner, song.id)).toEqual(before);
  });

  it('lets anyone give lyrics to a song without them, and only the uploader change them (others 404)', async () => {
    const first = await putLyrics(t, other, second.id, { transcript: 'Added by a listener' });
    expect(first.statusCode).toBe(200);
    expect(first.json<LyricsTranscriptResponse>().canEdit).toBe(false);
    const again = await putLyrics(t, other, second.id, { transcript: 'Overwritten?' });
    expect(again.statusCode).toBe(404);
    expect((await getLyrics(t, owner, second.id)).text).toBe('Added by a listener');
    expect((await getLyrics(t, owner, second.id)).canEdit).toBe(true);
    expect((await putLyrics(t, owner, second.id, { transcript: 'Fixed by the uploader' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown song and 401 without a session', async () => {
    expect((await t.app.inject({ url: '/api/files/999999/lyrics', headers: bearer(owner) })).statusCode).toBe(404);
    expect((await putLyrics(t, owner, 999999, { transcript: 'x' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/files/999999/lyrics/export', headers: bearer(owner) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/files/${song.id}/lyrics` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/files/abc/lyrics', headers: bearer(owner) })).statusCode).toBe(400);
  });

  it('leaves the transcript out of the list entries; the detail call still carries it', async () => {
    const list = await t.app.inject({ url: '/api/files', headers: bearer(owner) });
    expect(list.statusCode).toBe(200);
    const entry = list.json<Record<string, unknown>[]>().find((candidate) => candidate['id'] === second.id);
    expect(entry, list.body.slice(0, 200)).toBeDefined();
    expect(entry).not.toHaveProperty('transcript');
    expect(list.body).not.toContain('Fixed by the uploader');
    expect((await t.app.inject({ url: `/api/files/${second.id}`, headers: bearer(owner) })).json<Song>().transcript).toBe('Fixed by the uploader');
  });
});
