import type { Song, SongListEntry } from '@encore/common/library.contract';
import type { SongRecord } from './library.port.js';

/** The wire's Song (the REST contract) of a song as `viewerId` sees it. */
export function toSong(record: SongRecord, viewerId: number): Song {
  return { ...toSongListEntry(record, viewerId), transcript: record.transcript };
}

/** A song in a list: no lyrics (they can be long and a list never shows them). */
export function toSongListEntry(record: SongRecord, viewerId: number): SongListEntry {
  return {
    id: record.id,
    displayName: record.displayName,
    fileName: record.fileName,
    fileType: record.fileType,
    s3Key: record.storageKey,
    size: record.size,
    uploadedAt: record.uploadedAt.toISOString(),
    isLiked: record.isLiked,
    folderId: record.folderId,
    title: record.title,
    artist: record.artist,
    album: record.album,
    albumArtist: record.albumArtist,
    genre: record.genre,
    year: record.year,
    trackNumber: record.trackNumber,
    discNumber: record.discNumber,
    durationSeconds: record.durationSeconds,
    bitrate: record.bitrate,
    sampleRate: record.sampleRate,
    hasCover: record.hasCover,
    uploadedBy: record.uploadedBy,
    isOwner: record.ownerId === viewerId,
    artistId: record.browseIds?.artistId ?? null,
    albumId: record.browseIds?.albumId ?? null,
  };
}
