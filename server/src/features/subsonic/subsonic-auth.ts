import type { ClientCredentials } from '../auth/auth.port.js';
import { missingParameter, SubsonicError } from './subsonic-errors.js';
import type { SubsonicParams } from './subsonic-params.js';

const CONFLICT = 'Multiple conflicting authentication mechanisms provided';

/**
 * The credentials a call carries: `apiKey` alone (apiKeyAuthentication), or `u` with `p`
 * (plain or `enc:` + hex) or with `t` + `s`. Which of them is valid is the auth module's to say.
 */
export function credentialsOf(params: SubsonicParams): ClientCredentials {
  const apiKey = params.get('apiKey');
  const userName = params.get('u');
  const password = params.get('p');
  const token = params.get('t');
  const salt = params.get('s');
  if (apiKey !== undefined) {
    if (userName !== undefined || password !== undefined || token !== undefined) throw new SubsonicError(43, CONFLICT);
    if (apiKey === '') throw new SubsonicError(44, 'Invalid API key');
    return { kind: 'apiKey', key: apiKey };
  }
  if (userName === undefined || userName === '') throw missingParameter('u');
  if (password !== undefined && token !== undefined) throw new SubsonicError(43, CONFLICT);
  if (password !== undefined) return { kind: 'password', userName, password: decodePassword(password) };
  if (token !== undefined) {
    if (salt === undefined || salt === '') throw missingParameter('s');
    return { kind: 'token', userName, token: token.toLowerCase(), salt };
  }
  throw missingParameter('p');
}

/** `enc:` + the password's UTF-8 bytes in hex (Subsonic's light obfuscation); otherwise as written. */
function decodePassword(password: string): string {
  if (!password.startsWith('enc:')) return password;
  const hex = password.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new SubsonicError(40, 'Wrong username or password');
  return Buffer.from(hex, 'hex').toString('utf8');
}
