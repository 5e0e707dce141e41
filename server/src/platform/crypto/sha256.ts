import { createHash, type BinaryLike } from 'node:crypto';

/** SHA-256 of `value`: hex for what is stored (token hashes), base64url for what is sent (ETags). */
export function sha256(value: BinaryLike, encoding: 'hex' | 'base64url' = 'hex'): string {
  return createHash('sha256').update(value).digest(encoding);
}
