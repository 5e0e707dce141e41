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

  it('ignores an invalid time tag, keeping its text untimed, and keeps a bracket that is not a time as text', () => {
    const parsed = parseLrc('[00:01.00]ok\n[1:75.00]bad seconds\n[ab:cd]letters');
    expect(parsed.lines.map((line) => line.text)).toEqual(['ok', 'bad seconds', '[ab:cd]letters']);
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
      {
        text: 'Hello big world',
        startTime: 1,
        endTime: 2.8,
        words: [
          { text: 'Hello', start: 1, end: 1.6 },
          { text: 'big', start: 1.6, end: 2 },
          { text: 'world', start: 2, end: 2.8 },
        ],
      },
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
  const srt =
    '1\n00:00:01,000 --> 00:00:03,000\nFirst <i>line</i>\n\n3\n00:00:06,000 --> 00:00:05,000\nbroken\n\n2\n00:00:04,000 --> 00:00:06,000\nTwo\nrows\n';
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

/** LRC files as other projects write them (players, lyric sites, editors), byte for byte. */
describe('LRC files from other projects', () => {
  // A lyric site's export: BOM, CRLF, its own metadata keys, a signed offset, three-digit ms.
  const siteFile =
    '\uFEFF[id:$00000000]\r\n[ar:Nova]\r\n[ti:Blue Hour]\r\n[al:Night Drive]\r\n[by:lrc-maker 2.1]\r\n[t_time:(03:14)]\r\n[kana:1ゆ1め]\r\n' +
    '[offset:+200]\r\n[00:12.345]Under the blue hour\r\n[00:17.020]We drive without a map\r\n[00:01.000][00:30.500]Oh oh oh\r\n';

  it('reads unknown metadata tags as metadata, not as lines, with BOM, CRLF, offset and three-digit ms', () => {
    const parsed = parseLrc(siteFile);
    expect(parsed.meta).toEqual({ title: 'Blue Hour', artist: 'Nova', album: 'Night Drive' });
    expect(parsed.lines).toEqual([
      { text: 'Oh oh oh', time: { start: 0.8, end: null } },
      { text: 'Under the blue hour', time: { start: 12.145, end: null } },
      { text: 'We drive without a map', time: { start: 16.82, end: null } },
      { text: 'Oh oh oh', time: { start: 30.3, end: null } },
    ]);
  });

  it('repeats a line at each of its leading time tags, spaces between them or not', () => {
    const parsed = parseLrc('[00:01.00] [00:30.00]Chorus line\n[00:10.00][00:40.00] Other');
    expect(parsed.lines.map((line) => [line.text, line.time?.start])).toEqual([
      ['Chorus line', 1],
      ['Other', 10],
      ['Chorus line', 30],
      ['Other', 40],
    ]);
  });

  it('keeps a section header whose name has a colon (Genius style) as a header', () => {
    const parsed = parseLrc('[Chorus: Nova]\n[00:01.00]la la\n[sign:someone]\n[00:03.00]la');
    expect(parsed.lines.map((line) => line.text)).toEqual(['[Chorus: Nova]', 'la la', 'la']);
  });

  it('ignores invalid times instead of making header lines of them', () => {
    const parsed = parseLrc('[00:01.00]First\n[00:-03.00]Negative seconds\n[02:83.37]Past sixty\n[00:05.00]Last\n[00:06.1234]Four digits\n');
    expect(parsed.lines.map((line) => line.text)).toEqual(['First', 'Negative seconds', 'Past sixty', 'Last', 'Four digits']);
    expect(parsed.lines.map((line) => line.time?.start ?? null)).toEqual([1, null, null, 5, 6.123]);
    expect(parsed.lines.some((line) => line.text.includes('['))).toBe(false);
  });

  it('reads foobar2000 inline [mm:ss] tags as word times, not as text', () => {
    const parsed = parseLrc('[00:12.00]Hello [00:12.50]big [00:13.00]world [00:13.80]\r\n[00:14.00]Next [00:14.400]line [00:15.00]\r\n');
    expect(parsed.lines).toEqual([
      { text: 'Hello big world', time: { start: 12, end: 13.8 } },
      { text: 'Next line', time: { start: 14, end: 15 } },
    ]);
    expect(parsed.words).toEqual([
      { text: 'Hello', start: 12, end: 12.5 },
      { text: 'big', start: 12.5, end: 13 },
      { text: 'world', start: 13, end: 13.8 },
      { text: 'Next', start: 14, end: 14.4 },
      { text: 'line', start: 14.4, end: 15 },
    ]);
  });

  it('keeps words apart that a time tag between them separates', () => {
    const parsed = parseLrc('[01:55.00]Let it be[02:01.40]ADLIB\n[02:05.00]Hel<02:05.50>lo\n');
    expect(parsed.lines.map((line) => line.text)).toEqual(['Let it be ADLIB', 'Hel lo']);
    expect(parsed.words?.map((word) => word.text)).toEqual(['Let', 'it', 'be', 'ADLIB', 'Hel', 'lo']);
  });

  it('keeps a line’s own start when its first word tag is later', () => {
    const parsed = parseLrc('[00:10.00]<00:10.60>Hello <00:11.00>world <00:11.50>\n[00:14.00]<00:14.20>Again <00:15.00>');
    expect(parsed.lines[0]!.time).toEqual({ start: 10, end: 11.5 });
    expect(parsed.words![0]).toEqual({ text: 'Hello', start: 10.6, end: 11 });
  });

  it('ends the last line at a trailing blank time tag', () => {
    const parsed = parseLrc('[00:01.00]One\r\n[00:03.00]Two\r\n[03:10.00]\r\n\r\n');
    expect(parsed.lines).toEqual([
      { text: 'One', time: { start: 1, end: null } },
      { text: 'Two', time: { start: 3, end: 190 } },
    ]);
  });

  it('writes an untimed line as a line without a time, and a known end as a closing tag', () => {
    const lines = [
      { text: 'Credits', startTime: null, endTime: null },
      { text: 'One', startTime: 1, endTime: 3 },
      { text: 'Two', startTime: 3, endTime: 190 },
    ];
    expect(writeLrc(lines, {}, 190)).toBe('Credits\n[00:01.00]One\n[00:03.00]Two\n[03:10.00]\n');
    expect(parseLrc(writeLrc(lines, {}, 190)).lines).toEqual([
      { text: 'Credits', time: null },
      { text: 'One', time: { start: 1, end: null } },
      { text: 'Two', time: { start: 3, end: 190 } },
    ]);
  });
});
