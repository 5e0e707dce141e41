import type { ReplayGain } from '@encore/common/analysis.contract';
import type { SongBrowse } from '../library/library.port.js';
import type { DiscoveryRepository } from './discovery.repository.js';
import type { PlaybackLoudness } from './discovery.schema.js';
import type { SongLoudness } from './discovery.port.js';

/** ReplayGain 2.0's reference loudness: a gain brings the song to it. */
export const REPLAY_GAIN_REFERENCE_LUFS = -18;

type Measured = Extract<PlaybackLoudness, { integratedLufs: number }>;

const isMeasured = (loudness: PlaybackLoudness | undefined): loudness is Measured => loudness !== undefined && !('failed' in loudness);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The gain (dB) that brings a song of this loudness to -18 LUFS, and its peak (linear, the true-peak estimate). */
export function trackGain(loudness: Measured): { gain: number; peak: number } {
  return { gain: round(REPLAY_GAIN_REFERENCE_LUFS - loudness.integratedLufs, 2), peak: round(loudness.truePeak, 6) };
}

/**
 * An album's gain and peak from its songs' measurements: the loudness is the energy average of
 * the songs' integrated loudness weighted by their measured duration, 10·log10(Σ wᵢ·10^(Lᵢ/10) / Σ wᵢ)
 * (what one measurement of the songs played in a row gives, but for the gating, which each song
 * did on its own); the peak is the highest song peak.
 */
export function albumGain(songs: readonly Measured[]): { gain: number; peak: number } {
  const weight = (song: Measured) => Math.max(song.seconds, 0.001);
  const total = songs.reduce((sum, song) => sum + weight(song), 0);
  const energy = songs.reduce((sum, song) => sum + weight(song) * 10 ** (song.integratedLufs / 10), 0) / total;
  return {
    gain: round(REPLAY_GAIN_REFERENCE_LUFS - 10 * Math.log10(energy), 2),
    peak: round(Math.max(...songs.map((song) => song.truePeak)), 6),
  };
}

/**
 * ReplayGain of songs from discovery's measurements. A song's album is the library's (same album
 * tag and album artist, else artist); a song without an album tag is an album of its own. Only
 * the album's songs already measured count; a song not measured (yet, or that failed) has none.
 */
export class ReplayGainFinder implements SongLoudness {
  constructor(
    private readonly repository: Pick<DiscoveryRepository, 'loudnessOf'>,
    private readonly browse: Pick<SongBrowse, 'albumsOfSongs'>,
  ) {}

  /**
   * Three reads whatever the number of songs and albums: their measurements, their albums (the
   * browse index, waited for: a gain must not change with whether the index was built, so not
   * keysOf, which song lists use without waiting), the albums' songs' measurements.
   */
  async replayGainOf(songIds: readonly number[]): Promise<Map<number, ReplayGain>> {
    const unique = [...new Set(songIds)];
    const own = await this.repository.loudnessOf(unique);
    const measured = unique.filter((id) => isMeasured(own.get(id)));
    if (measured.length === 0) return new Map();
    const albums = await this.browse.albumsOfSongs(measured);
    // Songs without an album tag are filed under an album with no name: each is its own album.
    const named = albums.filter((album) => album.name !== '');
    const albumOfSong = new Map<number, string>();
    for (const album of named) for (const id of album.songIds) albumOfSong.set(id, album.key);
    const members = await this.repository.loudnessOf([...new Set(named.flatMap((album) => album.songIds))]);
    const gainOfAlbum = new Map<string, { gain: number; peak: number }>();
    for (const album of named) {
      const songs = album.songIds.map((id) => members.get(id)).filter(isMeasured);
      if (songs.length > 0) gainOfAlbum.set(album.key, albumGain(songs));
    }
    const answer = new Map<number, ReplayGain>();
    for (const id of measured) {
      const track = trackGain(own.get(id) as Measured);
      const albumKey = albumOfSong.get(id);
      const album = (albumKey !== undefined ? gainOfAlbum.get(albumKey) : undefined) ?? track;
      answer.set(id, { trackGain: track.gain, trackPeak: track.peak, albumGain: album.gain, albumPeak: album.peak });
    }
    return answer;
  }
}
