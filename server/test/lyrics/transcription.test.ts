import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LyricsModel, LyricsTranscriptResponse, TranscribeSongResponse, TranscriptionStatus } from '@encore/common/lyrics.contract';
import type { Task } from '@encore/common/tasks.contract';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { getLyrics, loopbackServer, putLyrics, spokenWords, tempDir } from './lyrics-test-kit.js';
import { openAiStandIn, type StandIn } from './openai-stand-in.js';
import { OpenAiTranscriptionEngine } from '../../src/features/lyrics/transcription/openai.engine.js';
import { ENGINE_SAMPLE_RATE, EngineUnavailableError } from '../../src/features/lyrics/transcription/transcription-engine.js';

const SPOKEN = [
  { text: 'hello', at: 1 },
  { text: 'music', at: 3 },
  { text: 'library', at: 5 },
  { text: 'tonight', at: 7.5 },
];
const WORDS = ['Hello,', 'music', 'library', 'tonight.'];

async function waitForTask(t: LibraryApp, token: string, taskId: string): Promise<{ task: Task; progress: number[] }> {
  const progress: number[] = [];
  for (let i = 0; i < 600; i += 1) {
    const task = (await t.app.inject({ url: `/api/tasks/${taskId}`, headers: bearer(token) })).json<Task>();
    progress.push(task.progress);
    if (['done', 'failed', 'cancelled'].includes(task.state)) return { task, progress };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the task did not finish');
}

describe.each(localSetups)('transcription through an OpenAI-compatible endpoint ($engine)', (setup) => {
  let t: LibraryApp;
  let standIn: StandIn;
  let owner: string;
  let other: string;
  let song: Song;
  let second: Song;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    temp = await tempDir();
    const file = await spokenWords(temp.dir, SPOKEN, 10, 'Spoken Words.mp3');
    standIn = await openAiStandIn(WORDS, { delayMs: 300 });
    t = await startLibraryApp(setup, {
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_API_URL: standIn.url,
      TRANSCRIBE_API_KEY: 'test-key',
      TRANSCRIBE_MODEL: 'whisper-test',
      LYRICS_LOOKUP_URL: 'off',
    });
    owner = await account(t, 'transcribeowner');
    other = await account(t, 'transcribeother');
    song = (await upload(t, owner, file)).song;
    second = (await upload(t, owner, file, { fileName: 'Second Spoken.mp3' })).song;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
    await temp?.cleanup();
  });

  it('runs as a task with real progress and stores word-timed lyrics built into lines', async () => {
    const started = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/transcription`, headers: bearer(owner), payload: {} });
    expect(started.statusCode).toBe(202);
    const { taskId } = started.json<{ taskId: string }>();
    const { task, progress } = await waitForTask(t, owner, taskId);
    expect(task.state, task.error ?? '').toBe('done');
    expect(task.result).toMatchObject({ songId: song.id, engine: 'openai', wordCount: 4, stored: true, language: 'en' });
    expect(progress.some((value) => value > 0 && value < 100)).toBe(true);
    expect(progress.at(-1)).toBe(100);
    const request = standIn.requests.at(-1)!;
    expect(request).toMatchObject({ model: 'whisper-test', authorization: 'Bearer test-key', language: null });
    expect(request.seconds).toBeGreaterThan(9.5);
    const lyrics = await getLyrics(t, owner, song.id);
    expect(lyrics).toMatchObject({ source: 'transcribed', timing: 'word', language: 'en' });
    expect(lyrics.text).toBe('Hello,\nmusic\nlibrary\ntonight.');
    lyrics.words!.forEach((word, index) => expect(Math.abs(word.start - SPOKEN[index]!.at), word.text).toBeLessThan(0.35));
    expect(lyrics.lines[1]!.startTime).toBeCloseTo(lyrics.words![1]!.start, 3);
  });

  it('joins two callers on one job, and both get its transcript', async () => {
    const before = standIn.requests.length;
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: `/api/files/${second.id}/transcribe`, headers: bearer(owner), payload: {} }),
      t.app.inject({ method: 'POST', url: `/api/files/${second.id}/transcribe`, headers: bearer(other), payload: { language: 'en' } }),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(a.json<LyricsTranscriptResponse>().transcript).toBe('Hello,\nmusic\nlibrary\ntonight.');
    expect(b.json<LyricsTranscriptResponse>().transcript).toBe(a.json<LyricsTranscriptResponse>().transcript);
    expect(standIn.requests.length - before).toBe(1);
  });

  it('lets anyone transcribe a song whose uploader emptied its lyrics, and stores the result for them', async () => {
    expect((await putLyrics(t, owner, second.id, { transcript: '' })).statusCode).toBe(200);
    const response = await t.app.inject({ method: 'POST', url: `/api/files/${second.id}/transcribe`, headers: bearer(other), payload: {} });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<LyricsTranscriptResponse>()).toMatchObject({ transcript: 'Hello,\nmusic\nlibrary\ntonight.', source: 'transcribed', canEdit: false });
    expect((await getLyrics(t, owner, second.id)).hasLyrics).toBe(true);
  });

  it('answers transcribe_song with the words for a play URL Encore issued, and refuses any other URL without fetching it', async () => {
    const play = (await t.app.inject({ url: `/api/files/${song.id}/play`, headers: bearer(other) })).json<{ url: string }>().url;
    const words = await t.app.inject({ method: 'POST', url: '/api/transcribe_song', headers: bearer(other), payload: { url: play } });
    expect(words.statusCode, words.body).toBe(200);
    expect(words.json<TranscribeSongResponse>().words.map((word) => word.text)).toEqual(WORDS);
    const before = standIn.requests.length;
    // Another host that counts every request made to it: Encore must never fetch what it is given.
    const elsewhere = await loopbackServer((request, response) => {
      elsewhere.hits.push(request.url ?? '');
      response.end('not a song');
    }).then((server) => Object.assign(server, { hits: [] as string[] }));
    try {
      const issued = new URL(play);
      const moved = `${elsewhere.url}${issued.pathname}${issued.search}`;
      const tampered = play.replace(/sig=([^&]+)/, (_, sig: string) => `sig=${sig.slice(0, -2)}AA`);
      const expired = play.replace(/exp=\d+/, 'exp=1000');
      const otherKey = play.replace(encodeURIComponent(song.s3Key).replace(/%2F/g, '/'), 'uploads/1/someone-else.mp3');
      expect(otherKey).not.toBe(play);
      const refused = [
        tampered,
        expired,
        otherKey,
        moved,
        `http://encore.test@${new URL(elsewhere.url).host}${issued.pathname}${issued.search}`,
        `${elsewhere.url}/music/${song.id}`,
        `http://evil.example/api/storage/o/${song.s3Key}`,
        'file:///etc/passwd',
        `${standIn.url}/v1/audio/transcriptions`,
        'not a url at all',
        `/api/storage/o/${song.s3Key}`,
      ];
      for (const url of refused) {
        const response = await t.app.inject({ method: 'POST', url: '/api/transcribe_song', headers: bearer(other), payload: { url } });
        expect(response.statusCode, url).toBe(400);
        expect(response.json<{ message: string }>().message).toBe('The URL must be a song link issued by this Encore');
      }
      expect((await t.app.inject({ method: 'POST', url: '/api/transcribe_song', headers: bearer(other), payload: {} })).statusCode).toBe(400);
      // Encore's own song page names the song; an unknown one is the song's 404.
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/transcribe_song',
        headers: bearer(other),
        payload: { url: 'http://encore.test/music/999999' },
      });
      expect(unknown.statusCode, unknown.body).toBe(404);
      expect(elsewhere.hits).toEqual([]);
      expect(standIn.requests.length).toBe(before);
    } finally {
      await elsewhere.close();
    }
  });

  it('shows the endpoint’s error with what to set, and loses nothing already stored', async () => {
    const before = await getLyrics(t, owner, song.id);
    standIn.mode = { kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } };
    try {
      const response = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/transcribe`, headers: bearer(owner), payload: {} });
      expect(response.statusCode).toBe(503);
      expect(response.json<{ message: string }>().message).toBe(
        `The transcription endpoint ${standIn.url}/v1/audio/transcriptions answered 401 (Incorrect API key provided): check TRANSCRIBE_API_KEY`,
      );
    } finally {
      standIn.mode = { kind: 'words' };
    }
    expect(await getLyrics(t, owner, song.id)).toEqual(before);
    const status = await t.app.inject({ url: `/api/files/${song.id}/lyrics/transcription`, headers: bearer(other) });
    expect(status.json<TranscriptionStatus | null>()).toBeNull();
  });

  it('refuses others a transcription over existing lyrics (404) and an unknown song (404)', async () => {
    await putLyrics(t, owner, song.id, { transcript: 'Kept as it is' });
    expect((await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/transcription`, headers: bearer(other), payload: {} })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'POST', url: '/api/files/999999/transcribe', headers: bearer(owner), payload: {} })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/files/999999/lyrics/transcription', headers: bearer(owner), payload: {} })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/files/999999/lyrics/transcription', headers: bearer(owner) })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/transcribe`, headers: bearer(owner), payload: { language: 'english!' } })).statusCode,
    ).toBe(400);
    expect((await getLyrics(t, other, song.id)).text).toBe('Kept as it is');
  });
});

describe('transcribe_song with S3 storage (s3rver on loopback)', () => {
  it('takes the bucket’s presigned play URL, and refuses one whose signature, date, key or host was changed', async () => {
    const temp = await tempDir();
    const standIn = await openAiStandIn(WORDS);
    const t = await startLibraryApp(
      { engine: 'pglite', storage: 's3' },
      { TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: standIn.url, LYRICS_LOOKUP_URL: 'off' },
    );
    try {
      const owner = await account(t, 's3owner');
      const song = (await upload(t, owner, await spokenWords(temp.dir, SPOKEN, 10))).song;
      const play = (await t.app.inject({ url: `/api/files/${song.id}/play`, headers: bearer(owner) })).json<{ url: string }>().url;
      const issued = new URL(play);
      expect(issued.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      const words = await t.app.inject({ method: 'POST', url: '/api/transcribe_song', headers: bearer(owner), payload: { url: play } });
      expect(words.statusCode, words.body).toBe(200);
      expect(words.json<TranscribeSongResponse>().words.map((word) => word.text)).toEqual(WORDS);

      const changed = (edit: (url: URL) => void) => {
        const url = new URL(play);
        edit(url);
        return url.toString();
      };
      const signature = issued.searchParams.get('X-Amz-Signature')!;
      const refused = [
        changed((url) => url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -4)}${signature.endsWith('0000') ? '1111' : '0000'}`)),
        changed((url) => url.searchParams.set('X-Amz-Signature', 'f'.repeat(64))),
        changed((url) => url.searchParams.set('X-Amz-Expires', '604800')),
        changed((url) => url.searchParams.set('X-Amz-Date', '20200101T000000Z')),
        changed((url) => (url.pathname = url.pathname.replace(/[^/]+$/, 'someone-else.mp3'))),
        changed((url) => (url.host = 'evil.example')),
      ];
      for (const url of refused) {
        const response = await t.app.inject({ method: 'POST', url: '/api/transcribe_song', headers: bearer(owner), payload: { url } });
        expect(response.statusCode, url).toBe(400);
      }
    } finally {
      await t.close();
      await standIn.close();
      await temp.cleanup();
    }
  }, 180_000);
});

describe('transcription bounds', () => {
  it('gives up on an endpoint that hangs within TRANSCRIBE_TIMEOUT_SECONDS, and says so', async () => {
    const temp = await tempDir();
    const standIn = await openAiStandIn(WORDS);
    standIn.mode = { kind: 'hang' };
    const t = await startLibraryApp(localSetups[0]!, {
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_API_URL: standIn.url,
      TRANSCRIBE_TIMEOUT_SECONDS: '2',
      LYRICS_LOOKUP_URL: 'off',
    });
    try {
      const owner = await account(t, 'hangowner');
      const file = await spokenWords(temp.dir, SPOKEN.slice(0, 1), 3);
      const song = (await upload(t, owner, file)).song;
      // Bounded by the test's own time limit: without the 2 s bound the default (1800 s) would run past it.
      const response = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/transcribe`, headers: bearer(owner), payload: {} });
      expect(response.statusCode).toBe(503);
      expect(response.json<{ message: string }>().message).toMatch(/did not answer within 2 s|longer than 2 s/);
      const lyrics = await getLyrics(t, owner, song.id);
      expect(lyrics.hasLyrics).toBe(false);
    } finally {
      await t.close();
      await standIn.close();
      await temp.cleanup();
    }
  }, 180_000);

  it('answers 503 with what to set when transcription is off', async () => {
    const temp = await tempDir();
    const t = await startLibraryApp(localSetups[0]!, { TRANSCRIBE_ENGINE: 'off', LYRICS_LOOKUP_URL: 'off' });
    try {
      const owner = await account(t, 'offowner');
      const file = await spokenWords(temp.dir, SPOKEN.slice(0, 1), 2);
      const song = (await upload(t, owner, file)).song;
      const response = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/transcribe`, headers: bearer(owner), payload: {} });
      expect(response.statusCode).toBe(503);
      expect(response.json<{ message: string }>().message).toBe('Transcription is turned off: set TRANSCRIBE_ENGINE to local or openai');
      expect((await getLyrics(t, owner, song.id)) satisfies LyricsModel).toMatchObject({ hasLyrics: false });
    } finally {
      await t.close();
      await temp.cleanup();
    }
  }, 180_000);
});

describe('the OpenAI-compatible endpoint’s address', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await openAiStandIn(['Hello.']);
  });
  afterAll(async () => standIn?.close());

  /** One second of a tone: a burst the stand-in answers with a word. */
  const input = () => ({
    samples: Float32Array.from({ length: ENGINE_SAMPLE_RATE }, (_, index) => 0.5 * Math.sin((2 * Math.PI * 440 * index) / ENGINE_SAMPLE_RATE)),
    language: null,
    signal: new AbortController().signal,
    progress: async () => undefined,
  });
  const engine = (apiUrl: string) => new OpenAiTranscriptionEngine({ apiUrl, apiKey: 'test-key', model: 'whisper-test', requestTimeoutMs: 30_000 });

  it('takes TRANSCRIBE_API_URL with or without /v1, as the OpenAI SDKs and servers spell it', async () => {
    for (const apiUrl of [standIn.url, `${standIn.url}/`, `${standIn.url}/v1`, `${standIn.url}/v1/`]) {
      const before = standIn.requests.length;
      const output = await engine(apiUrl).transcribe(input());
      expect(
        output.words.map((word) => word.text),
        apiUrl,
      ).toEqual(['Hello.']);
      expect(standIn.requests.length - before, apiUrl).toBe(1);
    }
  });

  it('says which URL it called when the endpoint refuses', async () => {
    standIn.mode = { kind: 'error', status: 404, body: { error: { message: 'The model does not exist' } } };
    try {
      await expect(engine(`${standIn.url}/v1`).transcribe(input())).rejects.toThrow(
        `The transcription endpoint ${standIn.url}/v1/audio/transcriptions answered 404 (The model does not exist): check TRANSCRIBE_API_URL and TRANSCRIBE_MODEL`,
      );
    } finally {
      standIn.mode = { kind: 'words' };
    }
  });

  it('follows no redirect to another port: the endpoint there is never asked, and the error names the URL', async () => {
    const away = await loopbackServer((request, response) => void response.writeHead(307, { location: `${standIn.url}${request.url ?? '/'}` }).end());
    const before = standIn.requests.length;
    try {
      const failure = engine(away.url).transcribe(input());
      await expect(failure).rejects.toBeInstanceOf(EngineUnavailableError);
      await expect(failure).rejects.toThrow(`${away.url}/v1/audio/transcriptions redirected to ${standIn.url}/v1/audio/transcriptions, another host or port`);
      expect(standIn.requests.length).toBe(before);
    } finally {
      await away.close();
    }
  });
});
