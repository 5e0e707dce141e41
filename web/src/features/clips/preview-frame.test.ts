import { describe, expect, it } from 'vitest';
import { softWipeAlpha } from './preview-frame';

describe('the soft wipe', () => {
  it('shows the incoming picture from the right edge through a soft edge a frame wide, as ffmpeg’s smoothleft', () => {
    expect(softWipeAlpha(0.5, 0)).toBe(0);
    expect(softWipeAlpha(0, 1)).toBe(1);
    // Halfway: a smoothstep across the whole frame (ffmpeg draws 127 of 255 in the middle, 7 at a tenth).
    expect(softWipeAlpha(0.5, 0.5)).toBeCloseTo(0.5);
    expect(softWipeAlpha(0.1, 0.5)).toBeCloseTo(0.028, 3);
    expect(softWipeAlpha(0.9, 0.25)).toBeGreaterThan(softWipeAlpha(0.1, 0.25));
  });
});
