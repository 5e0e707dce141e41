import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob, jobKind, TaskFailure } from '../../src/platform/jobs/jobs.types.js';
import type { AdminUser, QueuesResponse } from '@encore/common/admin.contract';
import { bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { linksTo, waitForLink } from '../auth/auth-mail.js';

const PASSWORD = 'admin test password 1';
const LAST_ADMIN = 'The last admin cannot be demoted or deleted. Make another account admin first.';

describe.each(engines)('the admin calls on %s', (engine) => {
  let t: TestApp;
  let audio: AudioFixtures;
  let musicDir: string;
  const sessions = new Map<string, string>();

  beforeAll(async () => {
    audio = await buildAudioFixtures();
    musicDir = await mkdtemp(path.join(tmpdir(), 'encore-admin-music-'));
    t = await startTestApp(engine, { MUSIC_FOLDERS: musicDir, MUSIC_WATCH: 'off' });
    for (const name of ['owner', 'bob', 'carol', 'dave']) {
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: name, email: `${name}@example.com`, password: PASSWORD } });
      sessions.set(name, await signIn(name));
    }
  });
  afterAll(async () => {
    await t?.close();
    await rm(musicDir, { recursive: true, force: true });
    await rm(audio?.dir ?? '', { recursive: true, force: true });
  });

  async function signIn(userName: string): Promise<string> {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: PASSWORD } });
    return response.json<{ token: string }>().token;
  }
  const as = (userName: string) => bearer(sessions.get(userName) ?? '');
  const call = (userName: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: as(userName), ...(payload ? { payload } : {}) });
  const users = async () => (await call('owner', 'GET', '/api/admin/users')).json<{ users: AdminUser[] }>().users;
  const userId = async (userName: string) => (await users()).find((user) => user.userName === userName)?.id ?? -1;

  it('lists the accounts with role, verification, uploads, storage and last seen', async () => {
    const song = await upload(t, sessions.get('bob') ?? '', audio.plainMp3);
    expect(song.complete.statusCode).toBe(201);
    const listed = await users();
    expect(listed.map((user) => [user.userName, user.role])).toEqual([
      ['owner', 'admin'],
      ['bob', 'user'],
      ['carol', 'user'],
      ['dave', 'user'],
    ]);
    const bob = listed.find((user) => user.userName === 'bob');
    expect(bob).toMatchObject({ email: 'bob@example.com', emailVerified: false, disabled: false, songs: 1, isYou: false, hasPassword: true });
    expect(bob?.storageBytes).toBeGreaterThan(10_000);
    expect(bob?.lastSeenAt).not.toBeNull();
    expect(listed.find((user) => user.userName === 'owner')).toMatchObject({ isYou: true, songs: 0, storageBytes: 0 });
  });

  it('makes and unmakes admins, never the last one, and the new admin sees the calls at once', async () => {
    const owner = await userId('owner');
    const bob = await userId('bob');
    const demoted = await call('owner', 'PUT', `/api/admin/users/${owner}/role`, { role: 'user' });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json()).toEqual({ message: LAST_ADMIN });
    expect((await call('owner', 'DELETE', `/api/admin/users/${owner}`)).json()).toEqual({ message: LAST_ADMIN });
    expect((await call('owner', 'PUT', `/api/admin/users/${owner}/disabled`, { disabled: true })).statusCode).toBe(409);

    expect((await call('bob', 'GET', '/api/admin/users')).statusCode).toBe(404);
    const promoted = await call('owner', 'PUT', `/api/admin/users/${bob}/role`, { role: 'admin' });
    expect(promoted.json()).toMatchObject({ userName: 'bob', role: 'admin' });
    expect((await call('bob', 'GET', '/api/admin/users')).statusCode).toBe(200);
    // Two admins: bob may step down, then owner is the last again.
    expect((await call('bob', 'PUT', `/api/admin/users/${bob}/role`, { role: 'user' })).json()).toMatchObject({ role: 'user' });
    expect((await call('bob', 'GET', '/api/admin/users')).statusCode).toBe(404);
    expect((await call('owner', 'PUT', `/api/admin/users/${owner}/role`, { role: 'user' })).statusCode).toBe(409);

    expect((await call('owner', 'PUT', `/api/admin/users/999999/role`, { role: 'admin' })).statusCode).toBe(404);
    expect((await call('owner', 'PUT', `/api/admin/users/${bob}/role`, { role: 'owner' })).statusCode).toBe(400);
  });

  it('disables an account: its session, API key and app password stop at once, its data stays; enabling lets it sign in again', async () => {
    const carol = await userId('carol');
    const key = (await call('carol', 'POST', '/api/auth/api-keys', { name: 'phone' })).json<{ key: string }>().key;
    const appPassword = (await call('carol', 'POST', '/api/auth/app-passwords', { name: 'desktop' })).json<{ password: string }>().password;
    const ping = (query: string) => t.app.inject({ url: `/rest/ping.view?v=1.16.1&c=test&f=json&${query}` });
    const statusOf = async (query: string) =>
      (await ping(query)).json<{ 'subsonic-response': { status: string; error?: { code: number } } }>()['subsonic-response'];
    expect(await statusOf(`apiKey=${key}`)).toMatchObject({ status: 'ok' });
    expect(await statusOf(`u=carol&p=${encodeURIComponent(appPassword)}`)).toMatchObject({ status: 'ok' });
    await call('carol', 'POST', '/api/playlists', { name: 'Carol mix' });

    const disabled = await call('owner', 'PUT', `/api/admin/users/${carol}/disabled`, { disabled: true });
    expect(disabled.json()).toMatchObject({ userName: 'carol', disabled: true });
    expect((await call('carol', 'GET', '/api/auth/profile')).statusCode).toBe(401);
    expect(await statusOf(`apiKey=${key}`)).toMatchObject({ status: 'failed', error: { code: 44 } });
    expect(await statusOf(`u=carol&p=${encodeURIComponent(appPassword)}`)).toMatchObject({ status: 'failed', error: { code: 40 } });
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'carol', password: PASSWORD } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This account has been disabled. Ask the administrator of this Encore.' });
    expect((await users()).find((user) => user.userName === 'carol')).toMatchObject({ disabled: true });

    expect((await call('owner', 'PUT', `/api/admin/users/${carol}/disabled`, { disabled: false })).json()).toMatchObject({ disabled: false });
    sessions.set('carol', await signIn('carol'));
    expect((await call('carol', 'GET', '/api/playlists')).json<{ name: string }[]>().map((p) => p.name)).toEqual(['Carol mix']);
    expect(await statusOf(`apiKey=${key}`)).toMatchObject({ status: 'ok' });
  });

  it('mails a password reset link on request', async () => {
    const before = await linksTo(t.dataDir, 'dave@example.com', '/reset-password');
    const sent = await call('owner', 'POST', `/api/admin/users/${await userId('dave')}/password-reset`);
    expect(sent.json()).toEqual({ message: 'A password reset link is on its way to dave@example.com.' });
    expect((await waitForLink(t.dataDir, 'dave@example.com', '/reset-password', before)).searchParams.get('email')).toBe('dave@example.com');
  });

  it("deletes an account: playlists, likes and keys go, its uploads stay as the instance's", async () => {
    const bob = await userId('bob');
    const songId = (await t.app.encore.platform.database.db.execute(sql`select id from songs where owner_id = ${bob}`)) as unknown as {
      rows: { id: number }[];
    };
    const song = songId.rows[0]?.id ?? -1;
    await call('bob', 'POST', `/api/files/${song}/like`);
    await call('bob', 'POST', '/api/playlists', { name: 'Bob mix' });
    await call('bob', 'POST', '/api/auth/api-keys', { name: 'bob phone' });

    const held = async () =>
      (
        (await t.app.encore.platform.database.db.execute(
          sql`select (select owner_id from songs where id = ${song}) as owner, (select count(*)::int from playlists where owner_id = ${bob}) as playlists,
                 (select count(*)::int from song_likes where user_id = ${bob}) as likes, (select count(*)::int from api_keys where user_id = ${bob}) as keys`,
        )) as unknown as { rows: { owner: number | null; playlists: number; likes: number; keys: number }[] }
      ).rows[0];
    expect(await held()).toEqual({ owner: bob, playlists: 1, likes: 1, keys: 1 });

    const deleted = await call('owner', 'DELETE', `/api/admin/users/${bob}`);
    expect(deleted.json()).toEqual({ songsKept: 1, songsDeleted: 0 });
    expect((await call('bob', 'GET', '/api/auth/profile')).statusCode).toBe(401);
    expect((await users()).map((user) => user.userName)).not.toContain('bob');
    expect(await held()).toEqual({ owner: null, playlists: 0, likes: 0, keys: 0 });
    // The song is still in the collection for everyone.
    expect((await call('dave', 'GET', `/api/files/${song}`)).statusCode).toBe(200);
    expect((await call('owner', 'DELETE', `/api/admin/users/${bob}`)).statusCode).toBe(404);
  });

  it('deletes an account with its uploads when asked', async () => {
    const dave = await userId('dave');
    const uploaded = await upload(t, sessions.get('dave') ?? '', audio.plainMp3, { fileName: 'Dave.mp3' });
    expect(uploaded.complete.statusCode).toBe(201);
    expect((await call('owner', 'DELETE', `/api/admin/users/${dave}?deleteUploads=maybe`)).statusCode).toBe(400);
    const deleted = await call('owner', 'DELETE', `/api/admin/users/${dave}?deleteUploads=true`);
    expect(deleted.json()).toEqual({ songsKept: 0, songsDeleted: 1 });
    expect((await call('owner', 'GET', `/api/files/${uploaded.song.id}`)).statusCode).toBe(404);
  });

  it('sends, lists and revokes invitations, and changes who may sign up', async () => {
    expect((await call('owner', 'POST', '/api/admin/invitations', { email: 'not an address' })).statusCode).toBe(400);
    const created = await call('owner', 'POST', '/api/admin/invitations', { email: 'friend@example.com' });
    expect(created.statusCode).toBe(201);
    const invitation = created.json<{ id: number; state: string; invitedBy: string; expiresAt: string }>();
    expect(invitation).toMatchObject({ state: 'pending', invitedBy: 'owner' });
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    await waitForLink(t.dataDir, 'friend@example.com', '/signup');
    const listed = (await call('owner', 'GET', '/api/admin/invitations')).json<{ invitations: { id: number; state: string }[] }>().invitations;
    expect(listed.find((entry) => entry.id === invitation.id)).toMatchObject({ state: 'pending' });
    expect((await call('owner', 'DELETE', `/api/admin/invitations/${invitation.id}`)).statusCode).toBe(204);
    expect((await call('owner', 'DELETE', `/api/admin/invitations/${invitation.id}`)).statusCode).toBe(404);

    expect((await call('owner', 'GET', '/api/admin/settings')).json()).toEqual({ signUp: { mode: 'open', fromEnvironment: false } });
    expect((await call('owner', 'PUT', '/api/admin/settings', { signUp: 'invite' })).json()).toEqual({ signUp: { mode: 'invite', fromEnvironment: false } });
    expect((await call('owner', 'PUT', '/api/admin/settings', { signUp: 'sometimes' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ signUp: 'invite' });
    await call('owner', 'PUT', '/api/admin/settings', { signUp: 'open' });
  });

  it("shows the music folders' scan and starts one", async () => {
    const folders = (await call('owner', 'GET', '/api/admin/music-folders')).json<{ configured: boolean; folders: { path: string }[] }>();
    expect(folders).toMatchObject({ configured: true, folders: [{ path: musicDir }] });
    const started = await call('owner', 'POST', '/api/admin/music-folders/scan');
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ trigger: 'manual' });
  });

  it('shows storage per kind', async () => {
    const storage = (await call('owner', 'GET', '/api/admin/storage')).json<{ kinds: { kind: string; bytes: number; objects: number }[] }>();
    expect(storage.kinds.map((kind) => kind.kind)).toEqual(['songs', 'covers', 'clips', 'transcodes']);
    // bob's song stays (the instance's); dave's was deleted, its file left to the orphan sweep.
    expect(storage.kinds[0]?.bytes).toBeGreaterThan(10_000);
  });

  it("deletes one's own account with the password asked again; never the last admin", async () => {
    expect((await call('carol', 'DELETE', '/api/auth/account', { password: 'wrong password' })).json()).toEqual({ message: 'Wrong password.' });
    expect((await call('carol', 'GET', '/api/auth/profile')).statusCode).toBe(200);
    expect((await call('carol', 'DELETE', '/api/auth/account', { password: PASSWORD })).statusCode).toBe(204);
    expect((await call('carol', 'GET', '/api/auth/profile')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'carol', password: PASSWORD } })).statusCode).toBe(401);

    const last = await call('owner', 'DELETE', '/api/auth/account', { password: PASSWORD });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ message: LAST_ADMIN });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/account', payload: { password: PASSWORD } })).statusCode).toBe(401);
  });
});

describe.each(engines)('the job queues on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let runs = 0;
  /** A job that fails for good at each attempt, and one no process works (heavy, on a light-only server): a real queue's failed and waiting jobs. */
  const failing = jobKind('test.admin-failing', z.object({ n: z.number() }));
  const parked = jobKind('test.admin-parked', z.object({ n: z.number() }));
  beforeAll(async () => {
    t = await startTestApp(
      engine,
      { WORKER: 'light' },
      {},
      {
        extraJobs: [
          defineJob(failing, {
            handler: async () => {
              runs += 1;
              throw new TaskFailure(`boom ${runs}`, { retry: false });
            },
            retry: { limit: 0, delaySeconds: 1, backoff: false },
            expireInSeconds: 60,
            concurrency: 1,
            weight: 'light',
          }),
          defineJob(parked, {
            handler: async () => undefined,
            retry: { limit: 0, delaySeconds: 1, backoff: false },
            expireInSeconds: 60,
            concurrency: 1,
            weight: 'heavy',
          }),
        ],
      },
    );
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'root', email: 'root@example.com', password: PASSWORD } });
    admin = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'root', password: PASSWORD } })).json<{ token: string }>()
      .token;
  });
  afterAll(async () => t?.close());

  const queues = async () => (await t.app.inject({ url: '/api/admin/queues', headers: bearer(admin) })).json<QueuesResponse>();
  const act = (action: 'retry' | 'cancel', queue: string, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/admin/queues/${queue}/jobs/${id}/${action}`, headers: bearer(admin) });

  it('lists every queue with its waiting, running and failed jobs, and retries a failed job', async () => {
    expect((await queues()).queues.map((queue) => queue.name)).toEqual(expect.arrayContaining(['mail.send', 'auth.password-reset-request', failing.name]));
    const id = (await t.app.encore.platform.jobs.send(failing, { n: 1 })) ?? '';
    await expect.poll(async () => (await queues()).jobs.find((job) => job.id === id)?.state, { timeout: 30_000 }).toBe('failed');
    const listed = await queues();
    expect(listed.queues.find((queue) => queue.name === failing.name)).toEqual({ name: failing.name, waiting: 0, running: 0, failed: 1 });
    expect(listed.jobs.find((job) => job.id === id)).toMatchObject({ queue: failing.name, error: 'boom 1', attempts: 1 });

    expect((await act('retry', failing.name, id)).statusCode).toBe(204);
    // It runs again at once and fails again: a second attempt, a second message.
    await expect.poll(async () => (await queues()).jobs.find((job) => job.id === id)?.error, { timeout: 30_000 }).toBe('boom 2');
    expect(runs).toBe(2);
    expect((await act('retry', 'mail.send', id)).statusCode).toBe(404);
  });

  it('cancels a waiting job, once', async () => {
    const id = (await t.app.encore.platform.jobs.send(parked, { n: 1 })) ?? '';
    const listed = await queues();
    expect(listed.queues.find((queue) => queue.name === parked.name)).toMatchObject({ waiting: 1, running: 0 });
    expect(listed.jobs.find((job) => job.id === id)).toMatchObject({ state: 'waiting' });
    expect((await act('retry', parked.name, id)).statusCode).toBe(404);
    expect((await act('cancel', parked.name, id)).statusCode).toBe(204);
    expect((await queues()).jobs.some((job) => job.id === id)).toBe(false);
    expect((await act('cancel', parked.name, id)).statusCode).toBe(404);
    expect((await act('cancel', parked.name, 'not-a-uuid')).statusCode).toBe(404);
    expect((await act('cancel', 'no.such.queue', id)).statusCode).toBe(404);
  });
});
