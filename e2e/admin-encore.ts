import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ownEncoreUrl, startOwnEncore } from './own-encore.js';

/** The address of the admin journey's Encore (the shared e2e server's port + 5). */
export const ADMIN_URL = ownEncoreUrl(5);

export interface AdminEncore {
  dataDir: string;
  musicDir: string;
  /** The first link in the newest mail to `email` whose path matches, as the outbox holds it. */
  linkFromOutbox(email: string, pathPattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A fresh Encore of the built app for the admin journey: its first sign-up is its admin, which
 * the shared server (whose first account some other journey made) cannot promise. SIGNUP is
 * left unset, so the admin page decides who may join; a music folder, empty, gives Scan now.
 */
export async function startAdminEncore(): Promise<AdminEncore> {
  const musicDir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-admin-music-'));
  const encore = await startOwnEncore({
    name: 'admin',
    baseUrl: ADMIN_URL,
    env: { ANALYSIS_ON_INGEST: 'false', MUSIC_FOLDERS: musicDir, MUSIC_WATCH: 'off', SIGNIN_LIMIT_PER_IP: '1000' },
    cleanUp: () => rm(musicDir, { recursive: true, force: true }),
  }).catch(async (error: unknown) => {
    await rm(musicDir, { recursive: true, force: true });
    throw error;
  });
  const { dataDir, stop } = encore;
  return { dataDir, musicDir, stop, linkFromOutbox: (email, pattern, timeoutMs) => linkFromOutbox(dataDir, email, pattern, timeoutMs) };
}

async function linkFromOutbox(dataDir: string, email: string, pathPattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const linkPattern = new RegExp(`https?://[^\\s"<>]+${pathPattern.source}[^\\s"<>]*`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = await readFile(path.join(outbox, file), 'utf8');
      if (!mail.includes(email)) continue;
      const match = linkPattern.exec(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${email} with a link matching ${pathPattern} in ${outbox}`);
}
