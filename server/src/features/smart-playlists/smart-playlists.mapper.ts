import type { SmartPlaylist, SmartSongsPage } from '@encore/common/smart-playlist.contract';
import { toSongListEntry } from '../library/library.port.js';
import type { SmartPlaylistRecord, SmartSongsPageRecord } from './smart-playlists.service.js';

export function toSmartPlaylist({ row, songCount }: SmartPlaylistRecord): SmartPlaylist {
  return {
    id: row.id,
    name: row.name,
    comment: row.comment,
    rules: row.rules,
    source: row.source,
    songCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toSmartSongsPage(page: SmartSongsPageRecord, viewerId: number): SmartSongsPage {
  return { total: page.total, songs: page.songs.map((song) => toSongListEntry(song, viewerId)) };
}
