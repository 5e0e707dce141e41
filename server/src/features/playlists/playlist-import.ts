import { songReferenceFromUrl, type SongLookup, type SongLookupMatch } from '../library/library.port.js';
import type { M3uEntry } from './playlist-m3u.format.js';

/** How far an entry's `#EXTINF` duration may be from a song's for the two to be the same song. */
export const DURATION_TOLERANCE_SECONDS = 2;

/** What the entries ask the library, each kind's values once; `entryKeys` says where each entry's are. */
export interface EntryQuestions {
  lookup: SongLookup;
  entryKeys: { id?: number; storageKey?: string; fileName?: string; artistTitle?: string }[];
}

/** The values each entry may name its song by: an Encore link, its file name, its artist and title. */
export function questionsOf(entries: readonly M3uEntry[]): EntryQuestions {
  const ids = new Set<number>();
  const storageKeys = new Set<string>();
  const fileNames = new Set<string>();
  const artistTitles = new Map<string, { artist: string; title: string }>();
  const entryKeys = entries.map((entry) => {
    const keys: EntryQuestions['entryKeys'][number] = {};
    const reference = songReferenceFromUrl(entry.location);
    if (reference && 'songId' in reference) ids.add((keys.id = reference.songId));
    else if (reference) storageKeys.add((keys.storageKey = reference.storageKey));
    if (entry.fileName) fileNames.add((keys.fileName = entry.fileName.toLowerCase()));
    if (entry.artist && entry.title) {
      keys.artistTitle = JSON.stringify([entry.artist, entry.title]);
      artistTitles.set(keys.artistTitle, { artist: entry.artist, title: entry.title });
    }
    return keys;
  });
  return {
    lookup: { ids: [...ids], storageKeys: [...storageKeys], fileNames: [...fileNames], artistTitles: [...artistTitles.values()] },
    entryKeys,
  };
}

/**
 * The song each entry names, or undefined: its Encore link's song, else the one song whose file
 * has its file name, else the one song of its artist and title whose duration is within the
 * tolerance of its own (when both are known).
 */
export function songsOfEntries(entries: readonly M3uEntry[], questions: EntryQuestions, matches: readonly SongLookupMatch[]): (number | undefined)[] {
  const { lookup } = questions;
  const byKind = new Map<string, SongLookupMatch[]>();
  const keyOf = (match: SongLookupMatch): string | number | undefined => {
    switch (match.kind) {
      case 'id':
        return lookup.ids[match.index];
      case 'storageKey':
        return lookup.storageKeys[match.index];
      case 'fileName':
        return lookup.fileNames[match.index];
      case 'artistTitle': {
        const pair = lookup.artistTitles[match.index];
        return pair ? JSON.stringify([pair.artist, pair.title]) : undefined;
      }
    }
  };
  for (const match of matches) {
    const key = `${match.kind}:${keyOf(match)}`;
    byKind.set(key, [...(byKind.get(key) ?? []), match]);
  }
  const found = (kind: SongLookupMatch['kind'], key: string | number | undefined) => (key === undefined ? [] : (byKind.get(`${kind}:${key}`) ?? []));
  const only = (candidates: SongLookupMatch[]) => {
    const ids = new Set(candidates.map((candidate) => candidate.songId));
    return ids.size === 1 ? candidates[0]?.songId : undefined;
  };
  return entries.map((entry, index) => {
    const keys = questions.entryKeys[index] ?? {};
    const linked = found('id', keys.id)[0] ?? found('storageKey', keys.storageKey)[0];
    if (linked) return linked.songId;
    const byName = only(found('fileName', keys.fileName));
    if (byName !== undefined) return byName;
    const tagged = found('artistTitle', keys.artistTitle).filter(
      (candidate) =>
        entry.durationSeconds === undefined ||
        candidate.durationSeconds === null ||
        Math.abs(candidate.durationSeconds - entry.durationSeconds) <= DURATION_TOLERANCE_SECONDS,
    );
    return only(tagged);
  });
}
