import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { account, bearer } from './library-test-kit.js';

describe.each(engines)('like toggles at once on %s', (engine) => {
  let t: TestApp;
  let ann: string;
  let songId: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    ann = await account(t, 'ann');
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select().from(users).where(eq(users.userName, 'ann'));
    const [song] = await db
      .insert(songs)
      .values({ ownerId: owner?.id ?? 0, displayName: 'Clicked', fileName: 'clicked.mp3', fileType: 'audio/mpeg', storageKey: 'uploads/clicked.mp3', size: 1 })
      .returning({ id: songs.id });
    songId = song?.id ?? 0;
  });
  afterAll(async () => t?.close());

  const toggle = async () =>
    (await t.app.inject({ method: 'POST', url: `/api/files/${songId}/like`, headers: bearer(ann) })).json<{ isLiked: boolean }>().isLiked;
  const liked = async () => (await t.app.inject({ method: 'GET', url: `/api/files/${songId}`, headers: bearer(ann) })).json<{ isLiked: boolean }>().isLiked;

  /**
   * Toggles taken one after another from `before` alternate: as many "liked" answers as
   * "unliked" ones, give or take the first, and the state ends as the last answer left it.
   */
  async function parallelToggles(count: number, before: boolean): Promise<void> {
    expect(await liked()).toBe(before);
    const answers = await Promise.all(Array.from({ length: count }, toggle));
    const likes = answers.filter(Boolean).length;
    const serialLikes = before ? Math.floor(count / 2) : Math.ceil(count / 2);
    expect({ likes, unlikes: count - likes }).toEqual({ likes: serialLikes, unlikes: count - serialLikes });
    expect(await liked()).toBe(count % 2 === 1 ? !before : before);
  }

  it('answers 10 toggles at once as if taken one after another, and the state matches the last answer', async () => {
    await parallelToggles(10, false);
    await parallelToggles(11, false);
    await parallelToggles(10, true);
  });
});
