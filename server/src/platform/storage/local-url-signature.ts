import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '../errors/app-errors.js';

/**
 * Signed URLs for the local driver: Encore serves the bytes itself, so a URL is only good
 * for the operation, key, expiry and response overrides it was signed for.
 */
export type LocalUrlOp = 'get' | 'put';

export interface LocalUrlClaims {
  op: LocalUrlOp;
  key: string;
  /** Unix seconds after which the URL is refused. */
  exp: number;
  /** put: the Content-Type the upload must carry; get: the Content-Type to answer with. */
  contentType?: string;
  /** get only: serve as a download with this file name. */
  downloadName?: string;
}

/** Query parameter names in the URL. */
const Q = { op: 'op', exp: 'exp', sig: 'sig', contentType: 'ct', downloadName: 'dn' } as const;

export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired.';

function signature(secret: string, claims: LocalUrlClaims): Buffer {
  // JSON keeps the fields unambiguous whatever characters they contain.
  const message = JSON.stringify([claims.op, claims.key, claims.exp, claims.contentType ?? null, claims.downloadName ?? null]);
  return createHmac('sha256', secret).update(message).digest();
}

/** The path and query of a signed URL, below the route prefix. */
export function signedPath(prefix: string, secret: string, claims: LocalUrlClaims): string {
  const query = new URLSearchParams({ [Q.op]: claims.op, [Q.exp]: String(claims.exp) });
  if (claims.contentType !== undefined) query.set(Q.contentType, claims.contentType);
  if (claims.downloadName !== undefined) query.set(Q.downloadName, claims.downloadName);
  query.set(Q.sig, signature(secret, claims).toString('base64url'));
  const encodedKey = claims.key.split('/').map(encodeURIComponent).join('/');
  return `${prefix}/o/${encodedKey}?${query.toString()}`;
}

type Query = Record<string, unknown>;

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Checks a request's query against the op and key it is for; returns the signed claims.
 * Every failure is the same ForbiddenError, so a probe learns nothing.
 */
export function verifySignedQuery(secret: string, op: LocalUrlOp, key: string, query: Query, nowSeconds = Math.floor(Date.now() / 1000)): LocalUrlClaims {
  const expText = single(query, Q.exp);
  const sigText = single(query, Q.sig);
  if (single(query, Q.op) !== op || !expText || !/^\d{1,12}$/.test(expText) || !sigText) {
    throw new ForbiddenError(INVALID_LINK_MESSAGE);
  }
  const claims: LocalUrlClaims = { op, key, exp: Number(expText) };
  const contentType = single(query, Q.contentType);
  const downloadName = single(query, Q.downloadName);
  if (contentType !== undefined) claims.contentType = contentType;
  if (downloadName !== undefined) claims.downloadName = downloadName;
  const expected = signature(secret, claims);
  const given = Buffer.from(sigText, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || claims.exp < nowSeconds) {
    throw new ForbiddenError(INVALID_LINK_MESSAGE);
  }
  return claims;
}
