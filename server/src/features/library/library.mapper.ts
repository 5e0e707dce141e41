import type { Song, SongListEntry } from '@encore/common/library.contract';
import type { SongRecord } from './library.repository.js';

/** The wire's Song (the REST contract) of a song as `viewerId` sees it. */
export function toSong(record: SongRecord, viewerId: number): Song {
  return { ...toSongListEntry(record, viewerId), transcript: record.row.transcript };
}

/** A song in a list: no lyrics (they can be long and a list never shows them). */
export function toSongListEntry(record: SongRecord, viewerId: number): SongListEntry {
  const { row } = record;
  return {
    id: row.id,
    displayName: row.displayName,
    fileName: row.fileName,
    fileType: row.fileType,
    s3Key: row.storageKey,
    size: row.size,
    uploadedAt: row.uploadedAt.toISOString(),
    isLiked: record.isLiked,
    folderId: row.folderId,
    title: row.title,
    artist: row.artist,
    album: row.album,
    albumArtist: row.albumArtist,
    genre: row.genre,
    year: row.year,
    trackNumber: row.trackNumber,
    discNumber: row.discNumber,
    durationSeconds: row.durationSeconds,
    bitrate: row.bitrate,
    sampleRate: row.sampleRate,
    hasCover: row.coverKey !== null,
    uploadedBy: record.uploadedBy,
    isOwner: row.ownerId === viewerId,
  };
}
