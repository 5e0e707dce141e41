import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A user's secret kept so that it can be read back (a secret that must be sent or checked as it
 * is, so it cannot be hashed): AES-256-GCM under a key derived (HKDF-SHA256) from the server
 * secret for one purpose alone, a random nonce per value, and the owner's user id as
 * authenticated data, so a ciphertext copied onto another user's row does not open. Stored as
 * `v1.<base64url nonce|ciphertext|tag>`. Changing JWT_SECRET makes stored values unreadable.
 */
export class UserSecretBox {
  private readonly key: Buffer;

  /** `purpose` names the derived key (`encore:app-passwords`); `label` prefixes the user id in the authenticated data. */
  constructor(
    serverKey: Uint8Array,
    purpose: string,
    private readonly label: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), purpose, 32));
  }

  encrypt(secret: string, userId: number): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad(userId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The secret, or undefined when the stored value does not open with this key for this user. */
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
    return Buffer.from(`${this.label}:${userId}`);
  }
}
