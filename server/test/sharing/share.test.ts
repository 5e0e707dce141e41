import fs from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedSong, Song } from '@encore/common/library.contract';
import { shareLinks } from '../../src/features/sharing/sharing.schema.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { waitForOutboxMail } from '../support/test-app.js';
import { account, bearer, fetchUrl, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';

const SENT = { success: true, message: 'Email sent successfully!' };
const NO_SONG = { message: 'Failed to retrieve the song URL. Please try again.' };
const INVALID_LINK = { message: 'This share link is invalid or has expired.' };

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/** The mail's text with quoted-printable soft breaks and escapes undone. */
function plain(mail: string): string {
  return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

function shareLinkIn(mail: string): string {
  const match = /http:\/\/encore\.test\/share\/([A-Za-z0-9_-]{40,})/.exec(plain(mail));
  if (!match?.[1]) throw new Error(`no share link in the mail:\n${mail}`);
  return match[1];
}

describe.each(localSetups)('sharing a song by e-mail on $engine', (setup) => {
  let t: LibraryApp;
  let ann: string;
  let song: Song;
  beforeAll(async () => {
    t = await startLibraryApp(setup);
    ann = await account(t, 'ann');
    song = (await upload(t, ann, fixtures.taggedMp3)).song;
  });
  afterAll(async () => t?.close());

  const send = (body: Record<string, unknown>, token: string | null = ann) =>
    t.app.inject({ method: 'POST', url: '/api/email/send-song-link', headers: token ? bearer(token) : {}, payload: body });
  const shared = (token: string) => t.app.inject({ url: `/api/share/${token}` });

  it('mails a link to a public page that plays the song without an account', async () => {
    const response = await send({ Email: 'friend@example.com', songUrl: `http://localhost:5173/music/${song.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(SENT);

    const mail = await waitForOutboxMail(t.dataDir, 'friend@example.com');
    expect(plain(mail)).toContain('ann shared');
    expect(plain(mail)).not.toContain('localhost:5173');
    const token = shareLinkIn(mail);
    const rows = await t.app.encore.platform.database.db.select().from(shareLinks);
    expect(rows.every((row) => !row.tokenHash.includes(token))).toBe(true);
    const expiresAt = rows[0]?.expiresAt.getTime() ?? 0;
    expect(Math.round((expiresAt - Date.now()) / 86_400_000)).toBe(30);

    const page = await shared(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const body = page.json<SharedSong>();
    expect(body).toMatchObject({ displayName: song.displayName, artist: song.artist, album: song.album, hasCover: true, sharedBy: 'ann' });
    expect(body.durationSeconds).toBeCloseTo(2, 0);
    expect(new Date(body.expiresAt).getTime()).toBe(expiresAt);

    // No Authorization header anywhere below: the signed URLs are the only credential.
    const stream = await fetchUrl(t, body.streamUrl, { headers: { range: 'bytes=0-99' } });
    expect(stream.status).toBe(206);
    expect(stream.headers['content-type']).toBe('audio/mpeg');
    expect(stream.body.equals((await fs.readFile(fixtures.taggedMp3)).subarray(0, 100))).toBe(true);
    const cover = await fetchUrl(t, body.coverUrl ?? '');
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');
  });

  it('finds the song from songId, an API path or its play URL too', async () => {
    const { url: playUrl } = (await t.app.inject({ url: `/api/files/${song.id}/play`, headers: bearer(ann) })).json<{ url: string }>();
    const variants: [string, Record<string, unknown>][] = [
      ['by-id@example.com', { email: 'by-id@example.com', songId: song.id }],
      ['by-api@example.com', { Email: 'by-api@example.com', songUrl: `/api/files/${song.id}/play` }],
      ['by-play@example.com', { Email: 'by-play@example.com', songUrl: playUrl }],
    ];
    for (const [to, body] of variants) {
      expect((await send(body)).json(), to).toEqual(SENT);
      const mail = plain(await waitForOutboxMail(t.dataDir, to));
      expect((await shared(shareLinkIn(mail))).json<SharedSong>().displayName).toBe(song.displayName);
      expect(mail).not.toContain('op=get');
    }
  });

  it('never mails a URL it was given, and refuses a song it cannot identify', async () => {
    for (const songUrl of ['https://evil.example/phish', `https://evil.example/music/999999`, 'javascript:alert(1)', '']) {
      const response = await send({ Email: 'victim@example.com', songUrl });
      expect(response.statusCode, songUrl).toBe(400);
      expect(response.json()).toEqual(NO_SONG);
    }
    expect((await send({ Email: 'victim@example.com' })).json()).toEqual(NO_SONG);
    expect((await send({ Email: 'victim@example.com', songId: 999999 })).json()).toEqual(NO_SONG);
    await expect(waitForOutboxMail(t.dataDir, 'victim@example.com', 1500)).rejects.toThrow();

    // A song URL on any host only names the song: the mail links to Encore, not to that host.
    expect((await send({ Email: 'other-host@example.com', songUrl: `https://evil.example/music/${song.id}` })).json()).toEqual(SENT);
    const mail = plain(await waitForOutboxMail(t.dataDir, 'other-host@example.com'));
    expect(mail).not.toContain('evil.example');
    expect(mail).toContain('http://encore.test/share/');
  });

  it('checks the address with the dialog’s messages and requires sign-in', async () => {
    const songUrl = `/music/${song.id}`;
    expect((await send({ Email: '  ', songUrl })).json()).toEqual({ message: 'Please enter an email address.' });
    expect((await send({ songUrl })).json()).toEqual({ message: 'Please enter an email address.' });
    for (const email of ['not-an-address', 'a@b', 'a@b.c,d.e', 'Name <a@b.c>']) {
      const response = await send({ Email: email, songUrl });
      expect(response.statusCode, email).toBe(400);
      expect(response.json()).toEqual({ message: 'Please enter a valid email address.' });
    }
    expect((await send({ Email: 'x@example.com', songUrl }, null)).statusCode).toBe(401);
  });

  it('answers 404 for unknown and expired links, and for links to deleted songs', async () => {
    expect((await shared('not-a-real-token')).json()).toEqual(INVALID_LINK);
    expect((await shared('A'.repeat(43))).json()).toEqual(INVALID_LINK);

    await send({ Email: 'late@example.com', songId: song.id });
    const token = shareLinkIn(await waitForOutboxMail(t.dataDir, 'late@example.com'));
    expect((await shared(token)).statusCode).toBe(200);
    const db = t.app.encore.platform.database.db;
    await db.update(shareLinks).set({ expiresAt: sql`now() - interval '1 minute'` });
    const expired = await shared(token);
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toEqual(INVALID_LINK);

    const doomed = (await upload(t, ann, fixtures.plainMp3)).song;
    await send({ Email: 'doomed@example.com', songId: doomed.id });
    const doomedToken = shareLinkIn(await waitForOutboxMail(t.dataDir, 'doomed@example.com'));
    expect((await shared(doomedToken)).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/files/${doomed.id}`, headers: bearer(ann) });
    expect((await shared(doomedToken)).json()).toEqual(INVALID_LINK);
  });

  it('limits each user to 20 shares an hour', async () => {
    const busy = await account(t, 'busy');
    for (let i = 0; i < 20; i += 1) expect((await send({ Email: `r${i}@example.com`, songId: song.id }, busy)).statusCode).toBe(200);
    const limited = await send({ Email: 'r20@example.com', songId: song.id }, busy);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual({ message: 'You have shared a lot of songs in the last hour. Please try again later.' });
    // Someone else is not affected.
    expect((await send({ Email: 'unaffected@example.com', songId: song.id })).statusCode).toBe(200);
  });
});
