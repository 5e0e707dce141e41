import { describe, expect, it } from 'vitest';
import {
  CLIP_TRANSITIONS,
  clipBeats,
  clipSpan,
  lineStarts,
  OnsetDetector,
  ONSET_SAMPLE_RATE,
  pictureAt,
  pictureBoundaries,
  transitionSeconds,
} from './clip-timeline.js';

describe('the clip timeline (render and preview)', () => {
  it('one length and look per transition', () => {
    expect(CLIP_TRANSITIONS).toEqual({
      smooth: { seconds: 0.8, look: 'fade' },
      sharp: { seconds: 0.25, look: 'push' },
      elastic: { seconds: 0.6, look: 'soft-wipe' },
    });
    expect(transitionSeconds([0, 1, 2], 'smooth')).toBe(0.5);
    expect(transitionSeconds([0, 10, 20], 'sharp')).toBe(0.25);
    expect(transitionSeconds([0, 10, 20], 'none')).toBe(0);
    expect(transitionSeconds([0, 10], 'smooth')).toBe(0);
  });

  it('takes the clip from its start to its end or the song end, at most 15 minutes', () => {
    expect(clipSpan({ startTime: 5, endTime: null }, 200)).toEqual({ start: 5, end: 200 });
    expect(clipSpan({ startTime: 5, endTime: 20 }, 200)).toEqual({ start: 5, end: 20 });
    expect(clipSpan({ startTime: 5, endTime: 300 }, 200)).toEqual({ start: 5, end: 200 });
    expect(clipSpan({ startTime: 0, endTime: null }, 3600)).toEqual({ start: 0, end: 900 });
  });

  it('splits evenly, then moves picture starts to the nearest anchor within half a picture', () => {
    expect(pictureBoundaries(3, 9)).toEqual([0, 3, 6, 9]);
    expect(pictureBoundaries(3, 9, [2.6, 4.9, 6.4])).toEqual([0, 2.6, 6.4, 9]);
    expect(pictureBoundaries(2, 4, [0.2])).toEqual([0, 2, 4]);
  });

  it('finds where lyric lines start: after a pause or a sentence end, and at each lyrics line', () => {
    expect(
      lineStarts(
        [
          { text: 'a', start: 1, end: 1.5 },
          { text: 'b.', start: 1.6, end: 2 },
          { text: 'c', start: 2.1, end: 2.5 },
          { text: 'd', start: 4, end: 4.5 },
        ],
        1,
      ),
    ).toEqual([0, 1.1, 3]);
    expect(
      lineStarts(
        [
          { text: 'a', start: 0, end: 1, lineStart: true },
          { text: 'b', start: 1, end: 2 },
          { text: 'c', start: 2, end: 3, lineStart: true },
        ],
        0,
      ),
    ).toEqual([0, 2]);
  });

  it('each picture takes over at its start, through the transition (as ffmpeg’s xfade at the boundary)', () => {
    const bounds = pictureBoundaries(3, 30);
    expect(pictureAt(0, bounds, 'smooth')).toEqual({ index: 0, next: null, mix: 0 });
    expect(pictureAt(9.99, bounds, 'smooth')).toEqual({ index: 0, next: null, mix: 0 });
    expect(pictureAt(10.4, bounds, 'smooth')).toEqual({ index: 0, next: 1, mix: expect.closeTo(0.5) });
    expect(pictureAt(10.8, bounds, 'smooth')).toEqual({ index: 1, next: null, mix: 0 });
    expect(pictureAt(20.125, bounds, 'sharp')).toEqual({ index: 1, next: 2, mix: expect.closeTo(0.5) });
    expect(pictureAt(29.9, bounds, 'smooth')).toEqual({ index: 2, next: null, mix: 0 });
    expect(pictureAt(10, bounds, 'none')).toEqual({ index: 1, next: null, mix: 0 });
    expect(pictureAt(25, [0, 30], 'smooth')).toEqual({ index: 0, next: null, mix: 0 });
    // Beat-snapped pictures: the second one takes over at the beat, not at the even split.
    const snapped = pictureBoundaries(2, 4, [1.6]);
    expect(snapped).toEqual([0, 1.6, 4]);
    expect(pictureAt(1.7, snapped, 'none').index).toBe(1);
  });

  it('finds a click every half second as onsets, fed in any chunks', () => {
    const seconds = 4;
    const samples = new Float32Array(seconds * ONSET_SAMPLE_RATE);
    for (let i = 0; i < samples.length; i++) {
      const t = i / ONSET_SAMPLE_RATE;
      samples[i] = 0.05 * Math.sin(2 * Math.PI * 440 * t) + (t % 0.5 < 0.02 ? 0.9 * Math.sin(2 * Math.PI * 2000 * t) : 0);
    }
    const detector = new OnsetDetector();
    for (let at = 0; at < samples.length; at += 1000) detector.push(samples.subarray(at, at + 1000));
    const beats = clipBeats(detector.onsets, 1, 2);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    for (const beat of beats) expect(Math.abs(((beat + 1) % 0.5) - 0.25)).toBeGreaterThan(0.2);
  });
});
