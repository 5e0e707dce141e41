import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Keys derived from the one secret, so that no two purposes share a key. */
export interface Secrets {
  jwtKey: Uint8Array;
  storageSigningKey: string;
  /** Where the secret came from, for the start-up log line. */
  source: 'environment' | 'data-dir' | 'generated';
}

/**
 * JWT_SECRET wins; otherwise the secret kept in DATA_DIR/secrets, created once on the first
 * start. There is no built-in default.
 */
export async function loadSecrets(configured: string | undefined, dataDir: string): Promise<Secrets> {
  if (configured) return derive(configured, 'environment');
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, 'jwt-secret');
  const existing = await readSecretFile(file);
  if (existing) return derive(existing, 'data-dir');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const fresh = randomBytes(48).toString('base64url');
  const temp = path.join(dir, `.jwt-secret-${randomBytes(6).toString('hex')}`);
  await writeFile(temp, fresh, { mode: 0o600, flush: true });
  try {
    // link() refuses to replace an existing file: if another process won the race, use its secret.
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temp, { force: true });
  }
  const stored = await readSecretFile(file);
  if (!stored) throw new Error(`Could not read the secret at ${file}`);
  return derive(stored, stored === fresh ? 'generated' : 'data-dir');
}

async function readSecretFile(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text.length >= 32 ? text : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function derive(secret: string, source: Secrets['source']): Secrets {
  const key = (purpose: string) => createHmac('sha256', secret).update(`encore:${purpose}`).digest();
  return {
    jwtKey: new Uint8Array(key('jwt')),
    storageSigningKey: key('storage').toString('base64url'),
    source,
  };
}
