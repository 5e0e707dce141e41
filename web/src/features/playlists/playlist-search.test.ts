import { describe, expect, it } from 'vitest';
import { filterPlaylists } from './playlist-search';

const playlists = [
  { id: 1, name: 'Morning Run', description: 'Fast and loud' },
  { id: 2, name: 'Focus', description: null },
  { id: 3, name: 'Rainy Day', description: 'Soft piano for the MORNING' },
];

describe('filterPlaylists', () => {
  it('matches the name or the description, ignoring case', () => {
    expect(filterPlaylists(playlists, 'morning').map((p) => p.id)).toEqual([1, 3]);
    expect(filterPlaylists(playlists, 'FOCUS').map((p) => p.id)).toEqual([2]);
    expect(filterPlaylists(playlists, 'piano').map((p) => p.id)).toEqual([3]);
  });

  it('returns everything for a blank search and nothing when nothing matches', () => {
    expect(filterPlaylists(playlists, '   ')).toHaveLength(3);
    expect(filterPlaylists(playlists, 'jazz')).toEqual([]);
  });
});
