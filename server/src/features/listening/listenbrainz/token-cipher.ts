import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * ListenBrainz user tokens at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * server secret for this use alone, a random nonce per token, and the owner's user id as
 * authenticated data, so a ciphertext copied onto another user's row does not open. The token
 * must be sent to ListenBrainz as it is, so it is encrypted, never hashed. Changing JWT_SECRET
 * makes stored tokens unreadable: those users link again.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(serverKey: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'encore:listenbrainz-tokens', 32));
  }

  encrypt(token: string, userId: number): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(userId));
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The token, or undefined when the stored value does not open with this key for this user. */
  decrypt(stored: string, userId: number): string | undefined {
    const [version, encoded] = stored.split('.');
    if (version !== VERSION || !encoded) return undefined;
    const bytes = Buffer.from(encoded, 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(userId));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

const aad = (userId: number) => Buffer.from(`listenbrainz-token:${userId}`);
