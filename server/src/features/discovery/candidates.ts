import type { SongFactsSource } from '../library/library.port.js';
import type { Candidate, DiscoveryRepository } from './discovery.repository.js';

/** Ranking reads this much of a song's lyrics (the language and the lyric words of a prompt). */
const TRANSCRIPT_CHARS = 2000;

/**
 * Every analysed song with what ranking needs: the features are discovery's, the tags and the
 * lyrics' text the library's, asked for all at once. A song deleted between the two reads is
 * left out, as a join would leave it.
 */
export async function loadCandidates(repository: Pick<DiscoveryRepository, 'analysedSongs'>, songs: Pick<SongFactsSource, 'songs'>): Promise<Candidate[]> {
  const analysed = await repository.analysedSongs();
  const facts = await songs.songs(
    analysed.map((song) => song.songId),
    { transcriptChars: TRANSCRIPT_CHARS },
  );
  const byId = new Map(facts.map((song) => [song.id, song]));
  return analysed.flatMap(({ songId, features, vector }) => {
    const song = byId.get(songId);
    if (!song) return [];
    return [
      {
        id: songId,
        displayName: song.displayName,
        title: song.title,
        artist: song.artist,
        album: song.album,
        genre: song.genre,
        year: song.year,
        durationSeconds: song.durationSeconds,
        transcript: song.transcript,
        features,
        vector,
      },
    ];
  });
}
