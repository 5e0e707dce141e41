import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type Engine, type TestApp } from '../support/test-app.js';

const PASSWORD = 'library password 1';

/** The events stream as a browser holds it: its status, and a promise of its end. */
interface OpenStream {
  status: number;
  ended: Promise<string>;
  close(): void;
}

function openStream(url: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      response.setEncoding('utf8');
      let text = '';
      response.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<string>((done) => response.once('close', () => done(text)));
      resolve({ status: response.statusCode ?? 0, ended, close: () => request.destroy() });
    });
    request.on('error', reject);
  });
}

async function startListening(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const ticketOf = async (t: TestApp, token: string) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/tasks/events-ticket', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<{ ticket: string }>().ticket;
};
const changePassword = (t: TestApp, token: string, newPassword: string) =>
  t.app.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(token), payload: { currentPassword: PASSWORD, newPassword } });
const eventsUrl = (base: string, ticket: string) => `${base}/api/tasks/events?ticket=${encodeURIComponent(ticket)}`;

describe.each(engines)('events tickets and streams end with the session on %s', (engine: Engine) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    // Re-checks an hour apart: only the revocation event or the expiry can end a stream here.
    t = await startTestApp(engine, { SESSION_RECHECK_SECONDS: '3600', JWT_SHORT_EXPIRES_IN: '8s' });
    base = await startListening(t);
  });
  afterAll(async () => t?.close());

  it('refuses a ticket issued before a password change', async () => {
    const token = await account(t, 'tina');
    const ticket = await ticketOf(t, token);
    expect((await changePassword(t, token, 'second password 2')).statusCode).toBe(200);
    const response = await t.app.inject({ method: 'GET', url: `/api/tasks/events?ticket=${encodeURIComponent(ticket)}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Your session has ended. Please sign in again.' });
  });

  it('refuses a session token as a ticket, and a ticket as a session token', async () => {
    const token = await account(t, 'sam');
    const ticket = await ticketOf(t, token);
    expect((await t.app.inject({ method: 'GET', url: `/api/tasks/events?ticket=${encodeURIComponent(token)}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(ticket) })).statusCode).toBe(401);
  });

  it('ends an open stream when the password changes', async () => {
    const token = await account(t, 'ursula');
    const stream = await openStream(eventsUrl(base, await ticketOf(t, token)));
    try {
      expect(stream.status).toBe(200);
      const changed = await changePassword(t, token, 'second password 2');
      expect(changed.statusCode).toBe(200);
      expect(await stream.ended).toContain('event: session-ended');
      // The session the change answered with follows its tasks again.
      const again = await openStream(eventsUrl(base, await ticketOf(t, changed.json<{ token: string }>().token)));
      expect(again.status).toBe(200);
      again.close();
    } finally {
      stream.close();
    }
  });

  it('ends an open stream when its session expires', async () => {
    await account(t, 'victor');
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'victor', password: PASSWORD, rememberMe: false } });
    const stream = await openStream(eventsUrl(base, await ticketOf(t, signIn.json<{ token: string }>().token)));
    try {
      expect(stream.status).toBe(200);
      expect(await stream.ended).toContain('event: session-ended');
    } finally {
      stream.close();
    }
  });

  it.skipIf(engine !== 'postgres')('ends an open stream when another process changes the token version', async () => {
    const token = await account(t, 'wanda');
    const stream = await openStream(eventsUrl(base, await ticketOf(t, token)));
    const other = new pg.Client({ connectionString: t.config.databaseUrl });
    try {
      expect(stream.status).toBe(200);
      await other.connect();
      await other.query(`update users set token_version = token_version + 1 where user_name = 'wanda'`);
      expect(await stream.ended).toContain('event: session-ended');
    } finally {
      stream.close();
      await other.end();
    }
  });
});

describe.each(engines)('the periodic session re-check on %s', (engine: Engine) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(engine, { SESSION_RECHECK_SECONDS: '1' });
    base = await startListening(t);
  });
  afterAll(async () => t?.close());

  it('ends an open stream whose revocation event was lost', async () => {
    const token = await account(t, 'xavier');
    const stream = await openStream(eventsUrl(base, await ticketOf(t, token)));
    try {
      expect(stream.status).toBe(200);
      // A password reset whose NOTIFY never arrives (a LISTEN connection that was down).
      const { db } = t.app.encore.platform.database;
      await db.execute(sql`alter table users disable trigger users_session_revoked`);
      await db.execute(sql`update users set token_version = token_version + 1 where user_name = 'xavier'`);
      await db.execute(sql`alter table users enable trigger users_session_revoked`);
      expect(await stream.ended).toContain('event: session-ended');
    } finally {
      stream.close();
    }
  });
});
