import { describe, expect, it } from 'vitest';
import { currentLineIndex, fillLineTimes, isHeaderLine, timeLinesByRule } from './lyrics-timing.rules.js';

describe('SPEC 9 line timing', () => {
  it('splits an unknown duration (240 s) evenly over lines without headers', () => {
    const lines = timeLinesByRule(['one', 'two', 'three', 'four'], null);
    expect(lines.map((line) => [line.startTime, line.endTime])).toEqual([
      [0, 60],
      [60, 120],
      [120, 180],
      [180, 240],
    ]);
    expect(lines.every((line) => !line.isHeader)).toBe(true);
  });

  it('gives content 80 % with headers, a header half a line, empty lines 0.1 s, the last line to the end', () => {
    const lines = timeLinesByRule(['[Verse]', 'a', 'b', '', '[Chorus]', 'c', 'd'], 100.1);
    // rest = 100.1 - 0.1 = 100; a line = 80 / 4 = 20 s; a header 10 s.
    expect(lines[0]).toEqual({ text: '[Verse]', startTime: 0, endTime: 10, isHeader: true });
    expect(lines[1]).toMatchObject({ startTime: 10, endTime: 30 });
    expect(lines[3]).toMatchObject({ text: '', startTime: 50, endTime: 50.1, isHeader: false });
    expect(lines[4]).toMatchObject({ startTime: 50.1, endTime: 60.1, isHeader: true });
    expect(lines[6]).toMatchObject({ startTime: 80.1, endTime: 100.1 });
  });

  it('treats any line with square brackets as a header', () => {
    expect(isHeaderLine('[Chorus]')).toBe(true);
    expect(isHeaderLine('Bridge [x2]')).toBe(true);
    expect(isHeaderLine('no brackets (here)')).toBe(false);
  });

  it('fits many headers beside few lines inside the duration', () => {
    const lines = timeLinesByRule(['[A]', '[B]', '[C]', 'x'], 10);
    expect(lines.at(-1)!.endTime).toBe(10);
    expect(Math.max(...lines.map((line) => line.endTime))).toBe(10);
    for (let i = 1; i < lines.length; i += 1) expect(lines[i]!.startTime).toBeGreaterThanOrEqual(lines[i - 1]!.startTime);
  });

  it('keeps known line times and fills the untimed ones between them', () => {
    const lines = fillLineTimes(['a', 'b', 'c', 'd'], [{ start: 10, end: null }, null, null, { start: 30, end: 35 }], 60);
    // 'a' has no end: it shares 10..30 with the two untimed lines after it.
    expect(lines.map((line) => line.startTime)).toEqual([10, 16.667, 23.333, 30]);
    expect(lines[0]!.endTime).toBe(16.667);
    expect(lines[3]!.endTime).toBe(60);
  });

  it('finds the current line', () => {
    const lines = timeLinesByRule(['a', 'b'], 10);
    expect(currentLineIndex(lines, -1)).toBe(-1);
    expect(currentLineIndex(lines, 0)).toBe(0);
    expect(currentLineIndex(lines, 6)).toBe(1);
  });
});
