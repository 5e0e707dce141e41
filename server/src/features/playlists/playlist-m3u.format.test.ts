import { describe, expect, it } from 'vitest';
import { parseM3u } from './playlist-m3u.format.js';

describe('parseM3u', () => {
  it('reads #EXTINF before its entry, through a BOM, CRLF line ends, comments and blank lines', () => {
    const text =
      '\uFEFF#EXTM3U\r\n#PLAYLIST:Mine\r\n\r\n# a comment\r\n#EXTINF:215,Björk - Jóga\r\nMusic/Björk/Joga.mp3\r\n#EXTINF:-1,Just a title\r\nsecond.ogg\r\n';
    expect(parseM3u(text)).toEqual([
      { location: 'Music/Björk/Joga.mp3', fileName: 'Joga.mp3', durationSeconds: 215, artist: 'Björk', title: 'Jóga', label: 'Björk - Jóga' },
      { location: 'second.ogg', fileName: 'second.ogg', durationSeconds: undefined, artist: undefined, title: undefined, label: 'Just a title' },
    ]);
  });

  it('takes a plain list of paths without #EXTM3U, and CR-only line ends', () => {
    expect(parseM3u('a.mp3\rb.mp3\r')?.map((entry) => [entry.location, entry.label, entry.durationSeconds])).toEqual([
      ['a.mp3', 'a.mp3', undefined],
      ['b.mp3', 'b.mp3', undefined],
    ]);
  });

  it('names the file of Windows, absolute and relative paths, file:// and http(s) URLs, decoded', () => {
    const names = parseM3u(
      [
        'C:\\Users\\ada\\My Music\\Song One.flac',
        '\\\\nas\\share\\two.mp3',
        '/srv/music/Three%20Four.mp3',
        '../five.m4a',
        'file:///C:/Music/six%20(live).mp3',
        'https://example.com/api/storage/o/songs/x/seven.mp3?exp=1&sig=abc',
        'http://radio.example/',
        '100% love.mp3',
      ].join('\n'),
    )?.map((entry) => entry.fileName);
    expect(names).toEqual(['Song One.flac', 'two.mp3', 'Three Four.mp3', 'five.m4a', 'six (live).mp3', 'seven.mp3', undefined, '100% love.mp3']);
  });

  it('reads #EXTINF attributes, decimal durations and an entry without #EXTINF after one with it', () => {
    const entries = parseM3u('#EXTINF:183.6 tvg-name="a, b" group-title="x",Artist - Title - Extended Mix\nsong.mp3\nplain.mp3\n');
    expect(entries?.[0]).toMatchObject({ durationSeconds: 183.6, artist: 'Artist', title: 'Title - Extended Mix', label: 'Artist - Title - Extended Mix' });
    expect(entries?.[1]).toMatchObject({ durationSeconds: undefined, artist: undefined, label: 'plain.mp3' });
  });

  it('finds no entries in a file of comments only, and no playlist in HTML or binary text', () => {
    expect(parseM3u('#EXTM3U\n#EXTINF:10,A - B\n\n')).toEqual([]);
    expect(parseM3u('  \n<!doctype html><html></html>')).toBeUndefined();
    expect(parseM3u('<?xml version="1.0"?><playlist/>')).toBeUndefined();
    expect(parseM3u('fLaC\u0000\u0000\u0000"\u0012')).toBeUndefined();
  });
});
