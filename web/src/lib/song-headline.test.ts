import { describe, expect, it } from 'vitest';
import { songHeadline } from './song-headline';

describe('songHeadline', () => {
  it('drops the artist a tagged display name starts with, since the artist line shows it', () => {
    expect(songHeadline({ displayName: 'Nova - Blue Hour', artist: 'Nova' })).toBe('Blue Hour');
    expect(songHeadline({ displayName: 'AC - DC - Live', artist: 'AC - DC' })).toBe('Live');
  });

  it('keeps any other display name whole', () => {
    expect(songHeadline({ displayName: 'Blue Hour', artist: 'Nova' })).toBe('Blue Hour');
    expect(songHeadline({ displayName: 'my-recording', artist: null })).toBe('my-recording');
    expect(songHeadline({ displayName: 'Novasphere - Intro', artist: 'Nova' })).toBe('Novasphere - Intro');
    expect(songHeadline({ displayName: 'Nova - ', artist: 'Nova' })).toBe('Nova - ');
    expect(songHeadline({ displayName: 'Nova - Blue Hour', artist: '  ' })).toBe('Nova - Blue Hour');
  });
});
