import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LYRICS_MESSAGES } from '@encore/common/lyrics.contract';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { account } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { getLyrics, putLyrics } from './lyrics-test-kit.js';

describe.each(engines)('non-owners filling a song without lyrics at once on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  const listeners: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    owner = await account(t, 'uploader');
    for (let n = 0; n < 4; n += 1) listeners.push(await account(t, `listener${n}`));
  });
  afterAll(async () => t?.close());

  async function songWithoutLyrics(name: string): Promise<number> {
    const db = t.app.encore.platform.database.db;
    const [uploader] = await db.select().from(users).where(eq(users.userName, 'uploader'));
    const [song] = await db
      .insert(songs)
      .values({
        ownerId: uploader?.id ?? 0,
        displayName: name,
        fileName: `${name}.mp3`,
        fileType: 'audio/mpeg',
        storageKey: `uploads/${name}.mp3`,
        size: 1,
        durationSeconds: 60,
      })
      .returning({ id: songs.id });
    return song?.id ?? 0;
  }

  it('lets exactly one of 8 fill it; the others get the 404 of lyrics they may not replace, and the first stays', async () => {
    const songId = await songWithoutLyrics('Contested');
    // Four listeners, two tries each: eight writes of lyrics at once.
    const writers = [...listeners, ...listeners];
    const responses = await Promise.all(writers.map((token, n) => putLyrics(t, token, songId, { transcript: `Lyrics number ${n}` })));
    const winners = responses.flatMap((response, n) => (response.statusCode === 200 ? [n] : []));
    expect(winners).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: LYRICS_MESSAGES.notFound });
    }
    expect((await getLyrics(t, owner, songId)).text).toBe(`Lyrics number ${winners[0]}`);
  });

  it('still lets the uploader replace them, however many write at once', async () => {
    const songId = await songWithoutLyrics('Owned');
    expect((await putLyrics(t, listeners[0]!, songId, { transcript: 'A first try' })).statusCode).toBe(200);
    const responses = await Promise.all([1, 2, 3].map((n) => putLyrics(t, owner, songId, { transcript: `Fixed ${n}` })));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect((await getLyrics(t, owner, songId)).text).toMatch(/^Fixed [123]$/);
  });
});
