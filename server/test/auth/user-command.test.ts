import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleMessagesEn } from '@encore/common/messages.en';
import { seedPgliteCluster } from '../support/pglite-cluster.js';
import { engines, freshPostgresDatabase, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `main.ts user create|reset-password|list` (issue 40) as an operator runs it: a child process
 * on a real data folder or PostgreSQL database, the password on stdin; then the accounts sign in
 * through the API of a server on the same data, with sign-up closed.
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.each(engines)('the user command on %s', (engine) => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'encore-user-command-'));
    env = { DATA_DIR: dataDir, SIGNUP: 'closed', ANALYSIS_BACKFILL: 'false', ANALYSIS_ON_INGEST: 'false' };
    if (engine === 'pglite') await seedPgliteCluster(dataDir);
    else {
      const database = await freshPostgresDatabase();
      env['DATABASE_URL'] = database.url;
      dropDatabase = database.drop;
    }
  });
  afterAll(async () => {
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const user = (args: string[], stdin?: string) =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(SERVER_DIR, 'src/main.ts'), 'user', ...args], {
        cwd: SERVER_DIR,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin ?? '');
    });

  it('creates the first admin of a closed instance, more accounts, resets a password and lists them; the accounts sign in', async () => {
    const root = await user(['create', '--email', 'root@example.com', '--name', 'root'], 'first password 1\n');
    expect(root, root.stderr).toMatchObject({ code: 0 });
    // The first account of the instance is its admin, without --admin.
    expect(root.stdout).toContain('Created the admin account root <root@example.com>.');
    const bob = await user(['create', '--email=bob@example.com'], 'bob password 1\n');
    expect(bob.stdout, bob.stderr).toContain('Created the user account bob <bob@example.com>.');
    const carol = await user(['create', '--email', 'carol@example.com', '--admin'], 'carol password 1');
    expect(carol.stdout, carol.stderr).toContain('Created the admin account carol <carol@example.com>.');

    const reset = await user(['reset-password', '--email', 'BOB@example.com'], 'bob new password 2\n');
    expect(reset, reset.stderr).toMatchObject({ code: 0 });
    expect(reset.stdout).toContain('Set a new password for bob <bob@example.com>');

    const list = await user(['list']);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+NAME\s+ROLE\s+DISABLED\s+CREATED \(UTC\)$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 4))).toEqual([
      ['root@example.com', 'root', 'admin', 'no'],
      ['bob@example.com', 'bob', 'user', 'no'],
      ['carol@example.com', 'carol', 'admin', 'no'],
    ]);

    // Refusals change nothing: a taken address, a short password, a password in argv, no password.
    const taken = await user(['create', '--email', 'bob@example.com', '--name', 'bobby'], 'another password 1\n');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('An account with the e-mail bob@example.com already exists');
    const short = await user(['create', '--email', 'dave@example.com'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain(ruleMessagesEn.passwordTooShort);
    const inArgv = await user(['create', '--email', 'dave@example.com', '--password', 'dave password 1']);
    expect(inArgv.code).toBe(2);
    expect(inArgv.stderr).toContain('A password is never given as an argument');
    const none = await user(['reset-password', '--email', 'bob@example.com']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No password on stdin');
    const unknown = await user(['reset-password', '--email', 'nobody@example.com'], 'whatever password 1\n');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no account with the e-mail nobody@example.com.');

    // A server on the same data: env's DATA_DIR (and DATABASE_URL on PostgreSQL) win over the
    // test app's own, so no second database is made for it.
    const t: TestApp = await startTestApp('pglite', { ...env, LOG_LEVEL: 'silent' });
    try {
      const signIn = (userName: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password } });
      const session = await signIn('root', 'first password 1');
      expect(session.statusCode, session.body).toBe(200);
      const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${session.json<{ token: string }>().token}` } });
      expect(profile.json()).toMatchObject({ userName: 'root', role: 'admin', emailVerified: true });
      expect((await signIn('bob', 'bob new password 2')).statusCode).toBe(200);
      expect((await signIn('bob', 'bob password 1')).statusCode).toBe(401);
      expect((await signIn('carol', 'carol password 1')).statusCode).toBe(200);
      expect((await signIn('dave', 'short')).statusCode).toBe(401);
      // Sign-up stays closed to everyone else.
      const signUp = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { userName: 'eve', email: 'eve@example.com', password: 'eve password 1' },
      });
      expect(signUp.statusCode).toBe(403);

      if (engine === 'pglite') {
        // The running server holds the embedded database: the command says so and touches nothing.
        const busy = await user(['create', '--email', 'frank@example.com'], 'frank password 1\n');
        expect(busy.code).toBe(1);
        expect(busy.stderr).toContain('is open in another Encore');
        expect((await signIn('frank', 'frank password 1')).statusCode).toBe(401);
      }
    } finally {
      await t.close();
    }
  }, 600_000);
});
