import { randomBytes } from 'node:crypto';
import { sha256 } from './sha256.js';

/**
 * The tokens of links that are mailed or shared (password reset, e-mail verification, a shared
 * song): 256 random bits for the link, and only their SHA-256 in the database, so a leaked
 * table opens nothing.
 */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOneTimeToken(token) };
}

export function hashOneTimeToken(token: string): string {
  return sha256(token);
}
