import type { ReplayGain } from '@encore/common/analysis.contract';
import { definePort } from '../../modules/module.js';

/** Songs that sound alike, from discovery's own analysis (tempo, energy, key, brightness, texture). */
export interface SimilarSongs {
  /**
   * Up to `count` ids of analysed songs nearest this one by their sonic features, nearest first,
   * the song itself left out; empty when it has not been analysed (or could not be).
   */
  similarTo(songId: number, count: number): Promise<number[]>;
  /** The same for several seeds at once (an album's or an artist's songs): each song ranked by its nearest seed, the seeds left out. */
  similarToAny(songIds: readonly number[], count: number): Promise<number[]>;
}

export const similarSongsPort = definePort<SimilarSongs>('similar-songs', 'Ids of analysed songs ranked by sonic similarity to one song or several.');

/** How loud songs play, from discovery's measurement (issue 30): what players level songs by. */
export interface SongLoudness {
  /**
   * The ReplayGain 2.0 values of those of `songIds` whose loudness has been measured (songs not
   * analysed yet, or whose audio could not be measured, are absent).
   */
  replayGainOf(songIds: readonly number[]): Promise<Map<number, ReplayGain>>;
}

export const songLoudnessPort = definePort<SongLoudness>(
  'song-loudness',
  "Songs' ReplayGain 2.0 values (track and album gain to -18 LUFS, peaks) from the analysis's loudness measurement.",
);
