import type { AlbumListKind, AlbumRecord, FolderFilter, Page } from '../library/library.port.js';
import type { SongListening } from '../listening/listening.port.js';
import type { SubsonicDeps } from './subsonic-endpoint.routes.js';
import type { SubsonicObject } from './subsonic-response.js';

/** The album lists that stand on the viewer's own listening: plays, last plays, ratings. */
export type ListeningKind = Extract<AlbumListKind, 'frequent' | 'recent' | 'highest'>;

export const isListeningKind = (kind: AlbumListKind): kind is ListeningKind => kind === 'frequent' || kind === 'recent' || kind === 'highest';

const byKey = (a: AlbumRecord, b: AlbumRecord) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** What an album's place in a list stands on. */
interface AlbumScore {
  plays: number;
  lastPlayed: number;
  ratingSum: number;
  rated: number;
  likes: number;
}

/**
 * `frequent`: the albums the viewer played, most plays (of all their songs) first; `recent`: by
 * their last play, newest first; `highest`: the albums with a song the viewer rated or liked, by
 * the mean of their ratings (albums rated before albums only liked), then by how many songs liked.
 * Ties by key, so pages neither overlap nor skip. Albums nobody's listening touches are not listed.
 */
export async function albumListByListening(
  deps: SubsonicDeps,
  kind: ListeningKind,
  page: Page,
  userId: number,
  folder: FolderFilter,
): Promise<SubsonicObject[]> {
  const [listenings, liked] = await Promise.all([deps.listening.allListening(userId), kind === 'highest' ? deps.browse.likedSongIds(userId) : []]);
  const likedIds = new Set(liked);
  const relevant = (id: number, listening: SongListening | undefined) =>
    kind === 'highest' ? listening?.rating !== undefined || likedIds.has(id) : (listening?.playCount ?? 0) > 0;
  const seeds = [...listenings.keys(), ...likedIds].filter((id) => relevant(id, listenings.get(id)));
  const albums = await deps.browse.albumsOfSongs(seeds, folder);
  const scores = new Map(albums.map((album) => [album.key, scoreOf(album, listenings, likedIds)]));
  const score = (album: AlbumRecord) => scores.get(album.key) as AlbumScore;
  const mean = (s: AlbumScore) => (s.rated === 0 ? -1 : s.ratingSum / s.rated);
  const order: Record<ListeningKind, (a: AlbumRecord, b: AlbumRecord) => number> = {
    frequent: (a, b) => score(b).plays - score(a).plays || score(b).lastPlayed - score(a).lastPlayed || byKey(a, b),
    recent: (a, b) => score(b).lastPlayed - score(a).lastPlayed || byKey(a, b),
    highest: (a, b) => mean(score(b)) - mean(score(a)) || score(b).likes - score(a).likes || byKey(a, b),
  };
  const sorted = albums.sort(order[kind]).slice(page.offset, page.offset + page.count);
  return deps.entries.albums(userId, sorted, listenings);
}

function scoreOf(album: AlbumRecord, listenings: ReadonlyMap<number, SongListening>, liked: ReadonlySet<number>): AlbumScore {
  const score: AlbumScore = { plays: 0, lastPlayed: 0, ratingSum: 0, rated: 0, likes: 0 };
  for (const id of album.songIds) {
    const listening = listenings.get(id);
    if (liked.has(id)) score.likes += 1;
    if (!listening) continue;
    score.plays += listening.playCount;
    score.lastPlayed = Math.max(score.lastPlayed, listening.lastPlayedAt?.getTime() ?? 0);
    if (listening.rating !== undefined) {
      score.ratingSum += listening.rating;
      score.rated += 1;
    }
  }
  return score;
}
