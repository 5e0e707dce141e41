import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { authMessagesEn } from '@encore/common/messages.en';
import { accountAdministrationPort, accountsPort } from '../../src/features/auth/auth.port.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { linksTo, mailsTo, waitForLink } from './auth-mail.js';

const INVITE_ONLY = 'Sign-up on this Encore is by invitation only. Ask its administrator to send you an invitation.';
const CLOSED = 'Sign-up is closed on this Encore. Ask its administrator for an account.';
const INVALID = 'This invitation link is invalid, expired or already used. Ask the administrator for a new one.';
const OTHER_EMAIL = authMessagesEn.invitationOtherEmail;

describe.each(engines)('sign-up modes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const signUp = (userName: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { userName, email: `${userName}@example.com`, password: 'correct horse 1', ...extra },
    });
  const config = async () => (await t.app.inject({ url: '/api/config' })).json<{ signUp: string }>();
  const admin = () => t.app.encore.modules.port(accountAdministrationPort);
  const owner = async () => {
    const account = await t.app.encore.modules.port(accountsPort).account('owner');
    if (!account) throw new Error('no owner');
    return account;
  };
  const invite = async (email: string) => {
    const before = await linksTo(t.dataDir, email, '/signup');
    await admin().signUp.invite(email, await owner());
    return (await waitForLink(t.dataDir, email, '/signup', before)).searchParams.get('invitation') ?? '';
  };

  it('is open by default, and the client config says so', async () => {
    expect(await config()).toMatchObject({ signUp: 'open' });
    expect((await signUp('owner')).statusCode).toBe(201);
  });

  it('under invite, refuses a sign-up without an invitation with a message, and takes one invitation once', async () => {
    await admin().signUp.setMode('invite');
    expect(await config()).toMatchObject({ signUp: 'invite' });
    const refused = await signUp('uninvited');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: INVITE_ONLY });

    const token = await invite('guest@example.com');
    const [mail] = await mailsTo(t.dataDir, 'guest@example.com');
    expect(mail).toContain('owner invites you to Encore');
    expect(mail).toContain('expires in 7 days');
    // The sign-up form fills in the invited address.
    const looked = await t.app.inject({ method: 'POST', url: '/api/auth/invitation', payload: { token } });
    expect(looked.json()).toEqual({ email: 'guest@example.com' });

    const created = await signUp('guest', { invitation: token });
    expect(created.statusCode).toBe(201);
    // The link reached that inbox: the account starts verified and gets no verification mail.
    const session = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'guest', password: 'correct horse 1' } })).json<{
      token: string;
    }>().token;
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${session}` } });
    expect(profile.json()).toMatchObject({ emailVerified: true, role: 'user' });

    const again = await signUp('guest2', { invitation: token, email: 'guest2@example.com' });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ message: INVALID });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/invitation', payload: { token } })).statusCode).toBe(404);
    const listed = await admin().signUp.invitations();
    expect(listed.find((invitation) => invitation.email === 'guest@example.com')).toMatchObject({ state: 'used', usedBy: 'guest', invitedBy: 'owner' });
  });

  it('refuses an expired, a revoked or a made-up invitation, and lets a failed sign-up keep its invitation', async () => {
    const expired = await invite('late@example.com');
    await t.app.encore.platform.database.db.execute(sql`update invitations set expires_at = now() - interval '1 second' where email = 'late@example.com'`);
    expect((await signUp('late', { invitation: expired })).json()).toEqual({ message: INVALID });

    const revoked = await invite('revoked@example.com');
    const id = (await admin().signUp.invitations()).find((invitation) => invitation.email === 'revoked@example.com')?.id ?? -1;
    await admin().signUp.revoke(id);
    await expect(admin().signUp.revoke(id)).rejects.toThrow('no longer pending');
    expect((await signUp('revoked', { invitation: revoked })).statusCode).toBe(403);

    expect((await signUp('madeup', { invitation: 'x'.repeat(43) })).json()).toEqual({ message: INVALID });
    expect((await signUp('toolong', { invitation: 'x'.repeat(201) })).statusCode).toBe(400);

    // A name already taken fails the sign-up (409) and leaves the invitation for a second try.
    const kept = await invite('kept@example.com');
    expect((await signUp('owner', { invitation: kept, email: 'kept@example.com' })).statusCode).toBe(409);
    expect((await signUp('kept', { invitation: kept })).statusCode).toBe(201);
  });

  it('takes an invitation only for the address it was mailed to', async () => {
    const token = await invite('bound@example.com');
    const other = await signUp('thief', { invitation: token, email: 'thief@example.com' });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: OTHER_EMAIL });
    // Refused, it stays pending for its address (written in any case).
    expect((await admin().signUp.invitations()).find((invitation) => invitation.email === 'bound@example.com')).toMatchObject({ state: 'pending' });
    expect((await signUp('bound', { invitation: token, email: 'Bound@Example.com' })).statusCode).toBe(201);
    expect((await admin().signUp.invitations()).find((invitation) => invitation.email === 'bound@example.com')).toMatchObject({
      state: 'used',
      usedBy: 'bound',
    });
  });

  it('under closed, refuses every sign-up, invitation or not; the environment wins over the stored setting', async () => {
    await admin().signUp.setMode('closed');
    expect(await config()).toMatchObject({ signUp: 'closed' });
    const token = await invite('closed@example.com');
    for (const response of [await signUp('nobody'), await signUp('closedguest', { invitation: token })]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: CLOSED });
    }
    expect(await admin().signUp.setting()).toEqual({ mode: 'closed', fromEnvironment: false });
    await admin().signUp.setMode('open');
    expect((await signUp('latecomer')).statusCode).toBe(201);
  });
});

describe.each(engines)('SIGNUP in the environment on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { SIGNUP: 'closed' });
  });
  afterAll(async () => t?.close());

  const signUp = (userName: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'correct horse 1' } });

  it('lets the first account of an empty instance in (one, its admin, of sign-ups at once), then is closed', async () => {
    // Nobody could create or invite the first account: the sign-up form is offered for it.
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ signUp: 'open' });
    const answers = await Promise.all(['first', 'second', 'third', 'fourth', 'fifth'].map((name) => signUp(name)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403, 403, 403, 403]);
    for (const answer of answers.filter((a) => a.statusCode === 403)) expect(answer.json()).toEqual({ message: CLOSED });
    const rows = await t.app.encore.platform.database.db.select().from(users);
    expect(rows.map((user) => user.role)).toEqual(['admin']);
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ signUp: 'closed' });
    expect((await signUp('later')).statusCode).toBe(403);
  });

  it('wins over the admin page, which cannot change it', async () => {
    const admin = t.app.encore.modules.port(accountAdministrationPort);
    expect(await admin.signUp.setting()).toEqual({ mode: 'closed', fromEnvironment: true });
    await expect(admin.signUp.setMode('open')).rejects.toThrow('SIGNUP in the environment');
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ signUp: 'closed' });
  });
});
