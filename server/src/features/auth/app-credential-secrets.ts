import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
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

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a key derived (HKDF-SHA256) from the server secret; each password gets a
 * random nonce, and the owner's user id is authenticated data, so a ciphertext copied onto
 * another user's row does not open. Changing JWT_SECRET makes existing app passwords unreadable
 * (they then fail like wrong ones).
 */
export class AppPasswordCipher {
  private readonly key: Buffer;

  constructor(serverKey: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'encore:app-passwords', 32));
  }

  encrypt(password: string, userId: number): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad(userId));
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The password, or undefined when the ciphertext does not open with this key and user. */
  decrypt(stored: string, userId: number): string | undefined {
    const [version, encoded] = stored.split('.');
    if (version !== VERSION || !encoded) return undefined;
    const bytes = Buffer.from(encoded, 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(this.aad(userId));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private aad(userId: number): Buffer {
    return Buffer.from(`app-password:${userId}`);
  }
}
