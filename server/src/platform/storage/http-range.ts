import { rangeNotSatisfiable } from './storage-key.js';

/**
 * Parses an HTTP `Range` header (RFC 9110 §14) against an object of `size` bytes.
 * - no header, or several ranges (we do not send multipart/byteranges): undefined, serve all;
 * - `bytes=a-b`, `bytes=a-`, `bytes=-n`: the inclusive range, clamped to the object;
 * - anything malformed or unsatisfiable: RangeNotSatisfiableError (416 with `bytes * /size`).
 */
export function parseRangeHeader(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match?.[1]) throw rangeNotSatisfiable(size);
  const specs = match[1].split(',').map((spec) => spec.trim());
  if (specs.length > 1) {
    // Still reject garbage, but serve well-formed multi-range requests in full.
    if (specs.some((spec) => !/^(\d+-\d*|-\d+)$/.test(spec))) throw rangeNotSatisfiable(size);
    return undefined;
  }
  return parseSpec(specs[0] ?? '', size);
}

function parseSpec(spec: string, size: number): { start: number; end: number } {
  const match = /^(\d*)-(\d*)$/.exec(spec);
  const first = match?.[1] ?? '';
  const last = match?.[2] ?? '';
  if (!match || (first === '' && last === '')) throw rangeNotSatisfiable(size);
  if (first === '') {
    const suffix = toInteger(last, size);
    if (suffix === 0 || size === 0) throw rangeNotSatisfiable(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toInteger(first, size);
  const end = last === '' ? size - 1 : toInteger(last, size);
  if (end < start || start >= size) throw rangeNotSatisfiable(size);
  return { start, end: Math.min(end, size - 1) };
}

function toInteger(digits: string, size: number): number {
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) throw rangeNotSatisfiable(size);
  return value;
}

export function contentRange(range: { start: number; end: number }, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}
