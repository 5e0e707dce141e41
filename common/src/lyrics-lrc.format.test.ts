import { describe, expect, it } from 'vitest';
import { formatLrcTime, looksLikeLrc, parseLrc, writeElrc, writeLrc } from './lyrics-lrc.format.js';
import { parseSrt, writeSrt, looksLikeSrt } from './lyrics-srt.format.js';

describe('LRC', () => {
  it('reads times, metadata, offset and headers', () => {
    const parsed = parseLrc('[ti:Song]\n[ar:Someone]\n[offset:500]\n[Verse]\n[00:01.50]Hello there\n[00:04.00]General\n');
    expect(parsed.meta).toEqual({ title: 'Song', artist: 'Someone' });
    expect(parsed.lines).toEqual([
      { text: '[Verse]', time: null },
      { text: 'Hello there', time: { start: 1, end: null } },
      { text: 'General', time: { start: 3.5, end: null } },
    ]);
    expect(parsed.words).toBeNull();
  });

  it('repeats a line with several time tags and sorts out-of-order lines', () => {
    const parsed = parseLrc('[00:30.00]second\n[00:10.00][00:50.00]chorus\n[00:05.00]first');
    expect(parsed.lines.map((line) => [line.text, line.time?.start])).toEqual([
      ['first', 5],
      ['chorus', 10],
      ['second', 30],
      ['chorus', 50],
    ]);
  });

  it('keeps a broken time tag as text instead of inventing a time', () => {
    const parsed = parseLrc('[00:01.00]ok\n[1:75.00]bad seconds\n[ab:cd]letters');
    expect(parsed.lines.map((line) => line.text)).toEqual(['ok', '[1:75.00]bad seconds', '[ab:cd]letters']);
    expect(parsed.lines[1]!.time).toBeNull();
  });

  it('reads enhanced LRC word times, the closing tag as the last end', () => {
    const parsed = parseLrc('[00:01.00]<00:01.00>Hello <00:01.60>big <00:02.00>world <00:02.80>\n[00:03.00]<00:03.00>Again <00:03.50>');
    expect(parsed.words).toEqual([
      { text: 'Hello', start: 1, end: 1.6 },
      { text: 'big', start: 1.6, end: 2 },
      { text: 'world', start: 2, end: 2.8 },
      { text: 'Again', start: 3, end: 3.5 },
    ]);
    expect(parsed.lines[0]).toEqual({ text: 'Hello big world', time: { start: 1, end: 2.8 } });
  });

  it('clamps overlapping word tags into order and inside their line', () => {
    const parsed = parseLrc('[00:10.00]<00:10.00>one <00:09.00>two <00:30.00>three\n[00:12.00]<00:12.00>four');
    const words = parsed.words!;
    expect(words.map((word) => word.text)).toEqual(['one', 'two', 'three', 'four']);
    for (let i = 1; i < words.length; i += 1) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    expect(words[2]!.end).toBeLessThanOrEqual(12);
    for (const word of words) expect(word.end).toBeGreaterThanOrEqual(word.start);
  });

  it('round-trips LRC and ELRC', () => {
    const lines = [
      { text: 'Hello big world', startTime: 1, endTime: 2.8, words: [{ text: 'Hello', start: 1, end: 1.6 }, { text: 'big', start: 1.6, end: 2 }, { text: 'world', start: 2, end: 2.8 }] },
      { text: 'Again', startTime: 3, endTime: 3.5, words: [{ text: 'Again', start: 3, end: 3.5 }] },
    ];
    const lrc = writeLrc(lines, { title: 'T' });
    expect(lrc).toBe('[ti:T]\n[00:01.00]Hello big world\n[00:03.00]Again\n');
    expect(parseLrc(lrc).lines.map((line) => [line.text, line.time?.start])).toEqual([
      ['Hello big world', 1],
      ['Again', 3],
    ]);
    const elrc = writeElrc(lines);
    expect(parseLrc(elrc).words).toEqual(lines.flatMap((line) => line.words));
  });

  it('formats times as mm:ss.xx and detects LRC', () => {
    expect(formatLrcTime(0)).toBe('00:00.00');
    expect(formatLrcTime(125.456)).toBe('02:05.46');
    expect(looksLikeLrc('plain\n[00:01.00]x')).toBe(true);
    expect(looksLikeLrc('[Chorus]\nla la')).toBe(false);
  });
});

describe('SRT', () => {
  const srt = '1\n00:00:01,000 --> 00:00:03,000\nFirst <i>line</i>\n\n3\n00:00:06,000 --> 00:00:05,000\nbroken\n\n2\n00:00:04,000 --> 00:00:06,000\nTwo\nrows\n';
  it('reads cues, sorts them, skips broken ones and splits multi-row cues', () => {
    expect(looksLikeSrt(srt)).toBe(true);
    expect(parseSrt(srt)).toEqual([
      { text: 'First line', time: { start: 1, end: 3 } },
      { text: 'Two', time: { start: 4, end: 5 } },
      { text: 'rows', time: { start: 5, end: 6 } },
    ]);
  });
  it('round-trips', () => {
    const lines = [
      { text: '[Verse]', startTime: 0, endTime: 1, isHeader: true },
      { text: 'Hello', startTime: 1, endTime: 2.5, isHeader: false },
      { text: 'World', startTime: 2.5, endTime: 3661.25, isHeader: false },
    ];
    const written = writeSrt(lines);
    expect(written).toContain('01:01:01,250');
    expect(parseSrt(written)).toEqual([
      { text: 'Hello', time: { start: 1, end: 2.5 } },
      { text: 'World', time: { start: 2.5, end: 3661.25 } },
    ]);
  });
});
