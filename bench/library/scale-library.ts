/**
 * The 50,000-song library of issue 14's benches: realistic titles, artists (accented names among
 * them), albums, years and durations, made as rows, not uploads.
 */
import type { NewSong } from '../../server/src/features/library/library.repository.js';

const FIRST = [
  'Midnight',
  'Golden',
  'Broken',
  'Silver',
  'Electric',
  'Lonely',
  'Summer',
  'Wild',
  'Velvet',
  'Paper',
  'Neon',
  'Hollow',
  'Crimson',
  'Quiet',
  'Burning',
  'Northern',
];
const SECOND = [
  'Heart',
  'River',
  'Dreams',
  'Highway',
  'Lights',
  'Rain',
  'Fire',
  'Letters',
  'Garden',
  'Skies',
  'Echoes',
  'Shadows',
  'Waves',
  'Roads',
  'Stars',
  'Bones',
];
const ARTIST_NAMES = [
  'Beyoncé',
  'Björk',
  'Sigur Rós',
  'Motörhead',
  'Café Tacvba',
  'Queen',
  'Radiohead',
  'Daft Punk',
  'Nina Simone',
  'Fleetwood Mac',
  'Léo Ferré',
  'Maná',
  'Zoé',
  'Mötley Crüe',
  'The Beatles',
  'Arcade Fire',
];

/** Deterministic and varied: 2,000 artists, 6,000 albums, titles of two or three words. */
export function songRow(ownerId: number, i: number): NewSong {
  const artist = i % 25 === 0 ? ARTIST_NAMES[i % ARTIST_NAMES.length]! : `${FIRST[(i * 7) % 16]} ${SECOND[(i * 3) % 16]} ${i % 2000}`;
  const album = `${SECOND[(i * 5) % 16]} of ${FIRST[(i * 11) % 16]} ${i % 6000}`;
  const title = `${FIRST[i % 16]} ${SECOND[Math.floor(i / 16) % 16]}${i % 3 === 0 ? ` ${SECOND[(i * 13) % 16]}` : ''} ${i}`;
  return {
    ownerId,
    displayName: `${artist} - ${title}`,
    fileName: `${title}.mp3`,
    fileType: 'audio/mpeg',
    storageKey: `uploads/${ownerId}/scale-${i}/song.mp3`,
    size: 3_000_000 + ((i * 7919) % 9_000_000),
    uploadedAt: new Date(Date.UTC(2020, 0, 1) + i * 45_000),
    title,
    artist,
    album,
    albumArtist: artist,
    genre: ['Rock', 'Pop', 'Jazz', 'Electronic', 'Folk'][i % 5]!,
    year: 1960 + (i % 65),
    trackNumber: (i % 14) + 1,
    discNumber: 1,
    durationSeconds: 120 + ((i * 37) % 360),
    bitrate: 192_000 + (i % 3) * 64_000,
    sampleRate: 44_100,
    transcript: i % 5 === 0 ? 'A line of a song that goes on for a while\n'.repeat(30) : null,
    coverKey: i % 2 === 0 ? `covers/scale-${i}/full.jpg` : null,
    coverThumbKey: i % 2 === 0 ? `covers/scale-${i}/thumb.jpg` : null,
  };
}
