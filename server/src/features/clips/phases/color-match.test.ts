import { describe, expect, it } from 'vitest';
import { bandMeans, colorStretches, DARK_TEXT, LIGHT_TEXT, luminance, sampleSize, textBand } from './color-match.js';

describe('colorMatch', () => {
  it('looks at the third of the frame the text sits in', () => {
    expect(textBand(480, 'top')).toEqual({ top: 0, height: 160 });
    expect(textBand(480, 'center')).toEqual({ top: 160, height: 160 });
    expect(textBand(480, 'bottom')).toEqual({ top: 320, height: 160 });
  });

  it('measures each frame of a raw RGB stream in its band only', () => {
    // Two 2 × 3 frames: the middle row differs from the others.
    const frame = (middle: number, rest: number) =>
      Buffer.from([rest, rest, rest, rest, rest, rest, middle, middle, middle, middle, middle, middle, rest, rest, rest, rest, rest, rest]);
    const raw = Buffer.concat([frame(250, 0), frame(10, 255)]);
    expect(bandMeans(raw, 2, 3, 'center')).toEqual([
      [250, 250, 250],
      [10, 10, 10],
    ]);
    expect(bandMeans(raw, 2, 3, 'top')).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
  });

  it('turns samples into stretches of one colour, changing halfway between samples, not flickering on mid-grey', () => {
    expect(colorStretches([0.1, 0.1, 0.9, 0.9], 2)).toEqual([
      { from: 0, color: LIGHT_TEXT },
      { from: 3, color: DARK_TEXT },
    ]);
    expect(colorStretches([0.9], 1)).toEqual([{ from: 0, color: DARK_TEXT }]);
    // 0.57 and 0.53 sit within the hysteresis of the 0.55 line: the colour holds.
    expect(colorStretches([0.2, 0.57, 0.53, 0.57, 0.2], 1)).toEqual([{ from: 0, color: LIGHT_TEXT }]);
    expect(colorStretches([0.2, 0.7, 0.53, 0.4], 1)).toEqual([
      { from: 0, color: LIGHT_TEXT },
      { from: 0.5, color: DARK_TEXT },
      { from: 2.5, color: LIGHT_TEXT },
    ]);
    expect(colorStretches([], 1)).toEqual([]);
  });

  it('samples small frames of the output shape', () => {
    expect(sampleSize(854, 480)).toEqual({ width: 64, height: 36 });
    expect(sampleSize(480, 854)).toEqual({ width: 36, height: 64 });
    expect(sampleSize(2160, 2160)).toEqual({ width: 64, height: 64 });
    expect(luminance([255, 255, 255])).toBeCloseTo(1);
  });
});
