import { randomBytes } from 'node:crypto';
import { safeFileName } from '../../../platform/storage/safe-file-name.js';

/**
 * A resumable upload's id, as its URL names it: `<uploader's user id>-<32 hex>`. The user id
 * in it is how every tus request knows whose upload it is (another user's id is 404) without a
 * read; the 128 random bits are what nobody can guess.
 */
const TUS_ID = /^(\d{1,10})-([0-9a-f]{32})$/;

export interface TusId {
  userId: number;
  /** The 32 random hex digits. */
  hex: string;
}

export function newTusId(userId: number): string {
  return `${userId}-${randomBytes(16).toString('hex')}`;
}

/** The parts of a well-formed id; undefined for anything else. */
export function parseTusId(id: string): TusId | undefined {
  const match = TUS_ID.exec(id);
  return match ? { userId: Number(match[1]), hex: match[2] as string } : undefined;
}

/**
 * Where a finished resumable upload's bytes go for ingest: an upload key of upload-key.ts
 * (`uploads/<user id>/<uuid>/<safe name>`) whose uuid is the id's random part, so the same
 * upload always lands at the same key.
 */
export function uploadKeyOfTus(id: TusId, fileName: string): string {
  const h = id.hex;
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return `uploads/${id.userId}/${uuid}/${safeFileName(fileName)}`;
}
