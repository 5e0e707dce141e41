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
