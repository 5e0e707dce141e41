import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's recommended minimum: 19 MiB of memory, 2 passes, 1 lane. */
// The package's Algorithm enum is a `const enum`, which isolated modules cannot import; 2 is Argon2id.
const ARGON2ID = 2;
const PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** What the auth feature needs of a password hasher; a test can count the work done. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * A hash to verify against when the user does not exist, so that costs the same time as a
   * real check and response times do not reveal which user names exist.
   */
  dummyHash(): Promise<string>;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('encore-timing-equaliser');
  return dummyHash;
}

export const argon2Hasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword, dummyHash: dummyPasswordHash };
