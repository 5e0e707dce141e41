import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOidcProvider, type AccountClaims, type OidcTestProvider } from '../server/test/support/oidc-provider.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const SSO_BUTTON_TEXT = 'Sign in with the test provider';
export const SSO_ADMIN_GROUP = 'encore-admins';

export interface SsoEncore {
  baseUrl: string;
  provider: OidcTestProvider;
  stop(): Promise<void>;
}

/**
 * A second Encore, with single sign-on, for the OpenID Connect journey only: the provider
 * (the `oidc-provider` package, on 127.0.0.1) and an Encore server of the built app configured
 * for it, with a data folder of its own. The shared e2e server is left as it is, so no other
 * journey sees the SSO button. Started and stopped by the journey itself.
 */
export async function startSsoEncore(accounts: Record<string, AccountClaims>): Promise<SsoEncore> {
  const port = Number(process.env['E2E_PORT'] ?? 8181) + 3;
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({ clientId: 'encore-e2e', clientSecret: 'encore-e2e-secret', redirectUris: [`${baseUrl}/signin`], accounts });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-sso-'));
  const server = spawn(process.execPath, [path.join(here, '../server/dist/main.js'), 'serve'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      TRANSCRIBE_ENGINE: 'off',
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: 'encore-e2e',
      OIDC_CLIENT_SECRET: 'encore-e2e-secret',
      OIDC_BUTTON_TEXT: SSO_BUTTON_TEXT,
      OIDC_ADMIN_GROUP: SSO_ADMIN_GROUP,
    },
  });
  let errors = '';
  server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const stop = async () => {
    await stopProcess(server);
    await provider.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(`${baseUrl}/api/health`, server, () => errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, provider, stop };
}

async function waitForHealth(url: string, server: ChildProcess, errors: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the SSO Encore server exited (${server.exitCode}): ${errors()}`);
    const ok = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the SSO Encore server did not answer ${url} within ${timeoutMs} ms: ${errors()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
