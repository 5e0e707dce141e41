import { createHash, randomBytes } from 'node:crypto';

/**
 * The tokens of e-mailed links (password reset, e-mail verification): 256 random bits for the
 * mail, and only their SHA-256 in the database, so a leaked table opens no account.
 */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOneTimeToken(token) };
}

export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
