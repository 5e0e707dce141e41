import { ValidationError } from '../../platform/errors/app-errors.js';

/**
 * A page's cursor: where the next page starts, and for a random order the seed of its shuffle
 * (so the pages of one shuffle neither repeat nor skip). Opaque to clients: "<offset>" or "<offset>.<seed>".
 */
export interface Cursor {
  offset: number;
  seed?: number;
}

export const CURSOR_NOT_VALID = 'The cursor is not valid.';

export function parseCursor(cursor: string | undefined): Cursor {
  if (cursor === undefined || cursor === '') return { offset: 0 };
  const match = /^(\d{1,9})(?:\.(\d{1,10}))?$/.exec(cursor);
  if (!match) throw new ValidationError(CURSOR_NOT_VALID);
  const seed = match[2] === undefined ? undefined : Number(match[2]);
  if (seed !== undefined && seed > 0xffffffff) throw new ValidationError(CURSOR_NOT_VALID);
  return seed === undefined ? { offset: Number(match[1]) } : { offset: Number(match[1]), seed };
}

export const formatCursor = (cursor: Cursor) => (cursor.seed === undefined ? String(cursor.offset) : `${cursor.offset}.${cursor.seed}`);
