import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { BODY_MISSING_MESSAGE } from '../../src/platform/http/json-body.js';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { spokenWords, tempDir } from '../lyrics/lyrics-test-kit.js';
import { openAiStandIn, type StandIn } from '../lyrics/openai-stand-in.js';

/**
 * SPEC 7 sends some calls with no body at all (like, transcribe, the deletes). A client may
 * send them with no content type, with `content-type: application/json` and nothing after it,
 * or with `content-length: 0`: each spelling must work as the spec writes the call. The
 * requests go over a real socket, byte for byte, so nothing in between adds a body.
 */

/** The ways a client says "no body". */
const NO_BODY: Record<string, string[]> = {
  'no body headers at all': [],
  'content-type: application/json and no body': ['content-type: application/json', 'content-length: 0'],
  'content-length: 0': ['content-length: 0'],
  'content-type: application/json and an empty chunked body': ['content-type: application/json', 'transfer-encoding: chunked'],
};

interface Answer {
  status: number;
  body: string;
}

/** One HTTP/1.1 request written by hand: the request line, the given headers, and no body bytes (an empty chunked body when chunked). */
function rawRequest(port: number, method: string, path: string, headers: string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const chunked = /\r\ntransfer-encoding: chunked/i.test(head);
      const raw = rest.join('\r\n\r\n');
      resolve({ status, body: chunked ? unchunk(raw) : raw });
    });
    const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close', ...headers];
    const chunked = headers.some((header) => /^transfer-encoding: chunked$/i.test(header));
    // Written, not ended: a half-closed socket is a client that left, and the server may drop it.
    socket.write(`${lines.join('\r\n')}\r\n\r\n${chunked ? '0\r\n\r\n' : ''}`);
  });
}

function unchunk(raw: string): string {
  let out = '';
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

describe.each(localSetups)('SPEC 7 calls sent without a body ($engine)', (setup) => {
  let t: LibraryApp;
  let standIn: StandIn;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let token: string;
  let song: Song;
  let port: number;

  beforeAll(async () => {
    temp = await tempDir();
    const file = await spokenWords(temp.dir, [{ text: 'hello', at: 1 }], 4, 'Body Less.mp3');
    standIn = await openAiStandIn(['Hello.']);
    t = await startLibraryApp(setup, { TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: standIn.url, LYRICS_LOOKUP_URL: 'off' });
    token = await account(t, 'bodyless');
    song = (await upload(t, token, file)).song;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
    await temp?.cleanup();
  });

  const auth = () => `authorization: Bearer ${token}`;
  const send = (method: string, path: string, headers: string[]) => rawRequest(port, method, path, [auth(), ...headers]);
  const playlistWithSong = async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/playlists', headers: bearer(token), payload: { name: 'Body-less' } });
    const id = created.json<{ id: number }>().id;
    await t.app.inject({ method: 'POST', url: `/api/playlists/${id}/songs`, headers: bearer(token), payload: { SongId: song.id } });
    return id;
  };

  it.each(Object.entries(NO_BODY))('POST /files/{id}/like toggles the like with %s', async (_label, headers) => {
    const before = (await t.app.inject({ url: `/api/files/${song.id}`, headers: bearer(token) })).json<Song>().isLiked;
    const answer = await send('POST', `/api/files/${song.id}/like`, headers);
    expect(answer.status, answer.body).toBe(200);
    expect((await t.app.inject({ url: `/api/files/${song.id}`, headers: bearer(token) })).json<Song>().isLiked).toBe(!before);
  });

  it.each(Object.entries(NO_BODY))('POST /files/{id}/transcribe answers the transcript with %s', async (_label, headers) => {
    const answer = await send('POST', `/api/files/${song.id}/transcribe`, headers);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ transcript: 'Hello.' });
  });

  it.each(Object.entries(NO_BODY))('DELETE /playlists/{id}/songs/{songId} and DELETE /playlists/{id} work with %s', async (_label, headers) => {
    const id = await playlistWithSong();
    const removed = await send('DELETE', `/api/playlists/${id}/songs/${song.id}`, headers);
    expect(removed.status, removed.body).toBeLessThan(300);
    const playlist = await t.app.inject({ url: `/api/playlists/${id}`, headers: bearer(token) });
    expect(playlist.json<{ songs: unknown[] }>().songs).toEqual([]);
    const deleted = await send('DELETE', `/api/playlists/${id}`, headers);
    expect(deleted.status, deleted.body).toBeLessThan(300);
    expect((await t.app.inject({ url: `/api/playlists/${id}`, headers: bearer(token) })).statusCode).toBe(404);
  });

  it.each(Object.entries(NO_BODY))("SPEC 7's GET calls answer 200 with %s", async (_label, headers) => {
    const key = encodeURIComponent(song.s3Key);
    for (const path of [
      '/api/auth/profile',
      '/api/files',
      '/api/files?owner=true&favorites=true',
      `/api/files/${song.id}`,
      `/api/files/${song.id}/play`,
      '/api/upload/presigned-url?fileName=a.mp3',
      '/api/playlists',
    ]) {
      const answer = await send('GET', path, headers);
      expect(answer.status, `${path} ${answer.body}`).toBe(200);
    }
    const image = await send('GET', `/api/files/extract-image?fileKey=${key}`, headers);
    expect([200, 204, 404], image.body).toContain(image.status);
  });

  it.each(Object.entries(NO_BODY))('a call that needs a body says it is missing, with %s', async (_label, headers) => {
    const answer = await send('POST', '/api/playlists', headers);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: BODY_MISSING_MESSAGE });
  });

  it.each(Object.entries(NO_BODY))("Encore's own body-less calls never refuse the missing body, with %s", async (_label, headers) => {
    const ticket = await send('POST', '/api/tasks/events-ticket', headers);
    expect(ticket.status, ticket.body).toBe(200);
    // Its rate limit (a few mails an hour) answers 429 by the later runs: never a 400 about the body.
    const resend = await send('POST', '/api/auth/resend-verification', headers);
    expect([200, 429], resend.body).toContain(resend.status);
    const started = await send('POST', `/api/files/${song.id}/lyrics/transcription`, headers);
    expect(started.status, started.body).toBe(202);
    // Routes whose ids name nothing here: a 404 about the id, never a 400 or 415 about the body.
    for (const [method, path] of [
      ['POST', '/api/tasks/no-such-task/cancel'],
      ['POST', '/api/songs/2147483647/more-like-this'],
      ['DELETE', '/api/files/2147483647'],
      ['DELETE', '/api/clips/2147483647'],
    ] as const) {
      const answer = await send(method, path, headers);
      expect(answer.status, `${method} ${path} ${answer.body}`).toBe(404);
    }
  });
});
