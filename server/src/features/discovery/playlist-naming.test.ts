import { describe, expect, it } from 'vitest';
import { describePlaylist, NAME_WORDS, namePlaylist } from './playlist-naming.js';

describe('AI playlist names and descriptions', () => {
  it.each([
    ['music for a rainy evening', 'Rainy Evening'],
    ['upbeat songs for a morning run', 'Upbeat Morning Run'],
    ['something calm to fall asleep to', 'Calm Sleep'],
    ['chill coding beats', 'Chill Coding Beats'],
    ['melancholic songs without vocals', 'Melancholic Instrumental'],
    ['an hour of 80s party music', '80s Party'],
    ['5 fast songs for the gym', 'Fast Gym'],
    ["music to study so I don't fall asleep", 'Study'],
    ['enrgetic songs', 'Energetic'],
    ['songs about leaving home', 'Leaving Home'],
    ['no rock', 'No Rock'],
    ['RELAXING', 'Relaxing'],
    ['nostalgic', 'Nostalgic'],
    ['שירים שקטים לשינה', 'שקטים לשינה'],
    ['מוזיקה בלי שירה לריכוז', 'אינסטרומנטלי לריכוז'],
    ['🎉🎉', 'Mix'],
  ])('names "%s" as "%s"', (prompt, name) => {
    expect(namePlaylist(prompt)).toBe(name);
  });

  it('keeps a name to five words of the prompt, in its language', () => {
    const name = namePlaylist('slow dreamy warm acoustic evening songs for reading by the window with tea');
    expect(name.split(' ').length).toBeLessThanOrEqual(NAME_WORDS);
    expect(name).toBe('Slow Dreamy Warm Acoustic Evening');
    expect(namePlaylist('שירים רומנטיים בעברית לערב שקט ונעים מאוד').split(' ').length).toBeLessThanOrEqual(NAME_WORDS);
  });

  it('says whose songs the playlist holds, what was understood and what could not be applied, without repeating the prompt', () => {
    expect(describePlaylist({ terms: ['calm', 'asleep'] }, 'collection')).toBe('From the collection. Matched on: calm, asleep.');
    expect(describePlaylist({ terms: [] }, 'library')).toBe('From your library.');
    expect(describePlaylist({ terms: ['reggae'] }, 'favourites', ['No song is tagged reggae: these sound like it'])).toBe(
      'From your songs and favourites. Matched on: reggae. No song is tagged reggae: these sound like it.',
    );
  });
});
