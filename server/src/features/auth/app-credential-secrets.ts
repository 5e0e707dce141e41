import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { UserSecretBox } from '../../platform/crypto/user-secret-box.js';
import { sha256 } from '../../platform/crypto/sha256.js';

/**
 * The secrets of app credentials: API keys (random, kept as a SHA-256) and app passwords
 * (random, easy to type on a phone, kept encrypted so the salted-MD5 token scheme of Subsonic
 * clients can be checked).
 */

/** No 0/o, 1/l/i: a password read off a screen and typed on a phone should not be ambiguous. */
const APP_PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Four groups of four (about 79 random bits): `k7mq-2xhp-wd9c-tf3n`. */
export function newAppPassword(): string {
  const groups = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => APP_PASSWORD_ALPHABET[randomInt(APP_PASSWORD_ALPHABET.length)]).join(''));
  return groups.join('-');
}

/** What a person may have typed for an app password: any case, with or without the dashes or spaces. */
export function normaliseAppPassword(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, '');
}

/** 256 random bits, URL-safe (clients put it in the query string). */
export function newApiKey(): { key: string; hash: string } {
  const key = `encore_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return sha256(key);
}

/** Equal strings, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Subsonic's token: md5(password + salt), lower-case hex. */
export function subsonicToken(password: string, salt: string): string {
  return createHash('md5')
    .update(password + salt, 'utf8')
    .digest('hex');
}

/**
 * App passwords at rest, encrypted (see UserSecretBox) so the salted-MD5 token scheme of Subsonic
 * clients can be checked. Changing JWT_SECRET makes existing app passwords unreadable (they then
 * fail like wrong ones).
 */
export class AppPasswordCipher extends UserSecretBox {
  constructor(serverKey: Uint8Array) {
    super(serverKey, 'encore:app-passwords', 'app-password');
  }
}
