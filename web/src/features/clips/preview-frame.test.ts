import { describe, expect, it } from 'vitest';
import { animationAt, linesOf, pictureAt, textAt } from './preview-frame';

const word = (text: string, start: number, end: number) => ({ text, start, end });

describe('pictureAt', () => {
  it('spreads pictures evenly over the clip and crossfades at the end of each slot', () => {
    expect(pictureAt(0, 3, 30, 'smooth')).toEqual({ index: 0, next: null, mix: 0 });
    expect(pictureAt(12, 3, 30, 'smooth')).toEqual({ index: 1, next: null, mix: 0 });
    const mid = pictureAt(9.5, 3, 30, 'smooth');
    expect(mid.index).toBe(0);
    expect(mid.next).toBe(1);
    expect(mid.mix).toBeCloseTo(0.5);
    expect(pictureAt(29.9, 3, 30, 'smooth')).toEqual({ index: 2, next: null, mix: 0 });
  });

  it('cuts without a transition, and one picture never changes', () => {
    expect(pictureAt(9.99, 3, 30, 'none')).toEqual({ index: 0, next: null, mix: 0 });
    expect(pictureAt(10, 3, 30, 'none').index).toBe(1);
    expect(pictureAt(25, 1, 30, 'smooth')).toEqual({ index: 0, next: null, mix: 0 });
  });
});

describe('textAt', () => {
  const lines = linesOf([word('Hello', 1, 1.5), word('world.', 1.6, 2), word('Again', 5, 5.5), word('here', 5.6, 6)]);

  it('breaks lines at a sentence end and shows a line from just before its first word', () => {
    expect(lines.map((line) => line.words.map((w) => w.text).join(' '))).toEqual(['Hello world.', 'Again here']);
    expect(textAt(lines, 0.5)).toBeNull();
    expect(textAt(lines, 0.8)?.current).toBe(-1);
    expect(textAt(lines, 1.7)).toMatchObject({ current: 1 });
    expect(textAt(lines, 2.5)?.line.words[0]?.text).toBe('Hello');
    expect(textAt(lines, 3.5)).toBeNull();
    expect(textAt(lines, 5.2)).toMatchObject({ current: 0 });
  });
});

describe('animationAt', () => {
  it('fades in over 0.3 s and leaves none alone', () => {
    expect(animationAt('fade', 0).alpha).toBe(0);
    expect(animationAt('fade', 0.15).alpha).toBeCloseTo(0.5);
    expect(animationAt('fade', 1).alpha).toBe(1);
    expect(animationAt('none', 0)).toEqual({ alpha: 1, scale: 1, offsetY: 0 });
    expect(animationAt('zoom', 0).scale).toBe(0.5);
    expect(animationAt('slide', 0).offsetY).toBeGreaterThan(0);
  });
});
