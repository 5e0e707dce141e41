import { describe, expect, it } from 'vitest';
import { pictureAt } from './preview-frame';

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
