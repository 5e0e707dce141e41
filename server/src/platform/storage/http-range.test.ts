import { describe, expect, it } from 'vitest';
import { RangeNotSatisfiableError } from '../errors/app-errors.js';
import { contentRange, parseRangeHeader } from './http-range.js';

function rejects(header: string, size: number): void {
  let caught: unknown;
  try {
    parseRangeHeader(header, size);
  } catch (error) {
    caught = error;
  }
  expect(caught, header).toBeInstanceOf(RangeNotSatisfiableError);
  expect((caught as RangeNotSatisfiableError).size).toBe(size);
}

describe('parseRangeHeader', () => {
  it('serves everything without a Range header', () => {
    expect(parseRangeHeader(undefined, 100)).toBeUndefined();
  });

  it('reads closed, open-ended and suffix ranges', () => {
    expect(parseRangeHeader('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRangeHeader('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRangeHeader('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRangeHeader('bytes=99-99', 100)).toEqual({ start: 99, end: 99 });
    expect(parseRangeHeader(' Bytes = 5-6 ', 100)).toEqual({ start: 5, end: 6 });
  });

  it('clamps ranges that run past the end', () => {
    expect(parseRangeHeader('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRangeHeader('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
  });

  it('rejects unsatisfiable ranges with 416 and the size', () => {
    rejects('bytes=100-', 100);
    rejects('bytes=100-200', 100);
    rejects('bytes=-0', 100);
    rejects('bytes=0-', 0);
    rejects('bytes=-5', 0);
  });

  it('rejects malformed ranges', () => {
    for (const header of ['', 'bytes=', 'bytes=-', 'bytes=a-b', 'bytes=5-1', 'items=0-1', 'bytes=1-2-3', 'bytes=0-1,x', 'bytes=99999999999999999999-']) {
      rejects(header, 100);
    }
  });

  it('serves well-formed multi-range requests in full', () => {
    expect(parseRangeHeader('bytes=0-1, 5-6', 100)).toBeUndefined();
  });

  it('formats Content-Range', () => {
    expect(contentRange({ start: 0, end: 9 }, 100)).toBe('bytes 0-9/100');
  });
});
