import type { IAudioMetadata, ILyricsTag, IOptions, IPicture } from 'music-metadata';
import type { ClosableSource } from './byte-source.js';
import { SourceBlob } from './source-blob.js';

/** What Encore keeps from an audio file's tags and stream headers. */
export interface AudioTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  albumArtist: string | null;
  genre: string | null;
  year: number | null;
  trackNumber: number | null;
  discNumber: number | null;
  durationSeconds: number | null;
  bitrate: number | null;
  sampleRate: number | null;
  /** The audio codec as the parser names it ('MPEG 1 Layer 3', 'FLAC', 'ALAC', 'WMA', 'Opus'…): what says whether a browser can play it. */
  codec: string | null;
  /** MusicBrainz ids when tagged (Picard and beets write them): the recording, the release, and the album artist (else the first artist). */
  musicBrainzRecordingId: string | null;
  musicBrainzAlbumId: string | null;
  musicBrainzArtistId: string | null;
  /** The compilation flag (iTunes cpil, ID3 TCMP, Vorbis COMPILATION). */
  compilation: boolean;
  /** Sort tags: ALBUMARTISTSORT / TSO2 / soaa, ARTISTSORT / TSOP / soar. */
  albumArtistSort: string | null;
  artistSort: string | null;
  /** Each value of a multi-valued artist tag (empty when the file has none). */
  artists: string[];
  /** Each value of a multi-valued genre tag (empty when none). */
  genres: string[];
  lyrics: string | null;
  /** Every lyrics tag as read (ID3 USLT and SYLT, Vorbis LYRICS, MP4 ©lyr), for the lyrics feature. */
  lyricsTags: readonly ILyricsTag[];
  /** The text of the `.lrc` file beside the song (a music folder's), decoded; the tags' lyrics come first when synced. */
  lyricsFile?: string;
  /** The embedded picture to use as cover art (front cover preferred), if any. */
  picture: { data: Uint8Array; format: string } | null;
  /** True when the parser found an audio stream (a codec, sample rate or duration). */
  hasAudio: boolean;
  /** True when the file also carries a video track (an MP4 film rather than an M4A); a still picture's track is not one. */
  hasVideo: boolean;
  /**
   * True when the only video in the file is a still picture's track (MJPEG, PNG): its cover,
   * as ffmpeg writes a WMA's attached picture. The tag parser does not read its bytes; ffmpeg does.
   */
  pictureStream?: boolean;
}

/** The parser gave up on the file: it is damaged or not what its header claims. */
export class UnreadableAudioError extends Error {}
/** Parsing took longer than allowed; the stream was destroyed. */
export class AudioTagsTimeoutError extends Error {}

const MAX_TEXT = 500;
const MAX_LYRICS = 100_000;

/**
 * Reads tags and stream facts from the file, giving up after `timeoutMs`: a malformed file can
 * make a parser wait for bytes that never come, so the source is closed on timeout and the
 * call rejects. The parser reads the file where it needs to, so tags at its end (APEv2,
 * ID3v1, Lyrics3) are read as well as those in front; `mimeType` (what the sniffer found)
 * picks the parser. The source is closed when this returns.
 */
export async function readAudioTags(source: ClosableSource, fileInfo: { mimeType: string }, timeoutMs: number): Promise<AudioTags> {
  // duration:true makes parsers without a length header (VBR MP3 without Xing, some Ogg)
  // read through the file instead of guessing.
  const metadata = await parseWithin(source, fileInfo.mimeType, { duration: true }, timeoutMs);
  return toAudioTags(metadata, { mimeType: fileInfo.mimeType, size: source.size });
}

/**
 * Only the lyrics tags of a file (front or end: ID3 USLT and SYLT, APEv2, Vorbis, MP4), read
 * as readAudioTags reads, without the length scan or the pictures. The source is closed.
 */
export async function readLyricsTags(source: ClosableSource, mimeType: string, timeoutMs: number): Promise<readonly ILyricsTag[]> {
  const metadata = await parseWithin(source, mimeType, { duration: false, skipCovers: true }, timeoutMs);
  return lyricsTagsOf(metadata);
}

/** The names lyrics tags carry as text (Vorbis and Matroska `LYRICS`, APEv2 `Lyrics`, MP4 `©lyr`, ASF `WM/Lyrics`). */
const TEXT_LYRICS_TAGS = new Set(['lyrics', 'unsyncedlyrics', '©lyr', 'wm/lyrics']);

/**
 * The lyrics tags as the file has them. music-metadata reads LRC in a text tag itself, and
 * loses what Encore's LRC reader keeps: it takes an impossible time (`[02:83.37]` as 203 s),
 * drops every line without a time and the `[offset]`, and leaves later time tags in the text.
 * Text tags are handed over as the text they hold (the lyrics feature reads the LRC); ID3's
 * USLT and SYLT frames (which carry a language) as parsed.
 */
function lyricsTagsOf(metadata: IAudioMetadata): ILyricsTag[] {
  const frames = (metadata.common.lyrics ?? []).filter((tag) => 'language' in tag || 'descriptor' in tag);
  const texts: ILyricsTag[] = [];
  for (const tags of Object.values(metadata.native)) {
    for (const tag of tags) {
      if (typeof tag.value !== 'string' || !TEXT_LYRICS_TAGS.has(tag.id.toLowerCase()) || tag.value.trim() === '') continue;
      texts.push({ contentType: 1, timeStampFormat: 0, text: tag.value, syncText: [] });
    }
  }
  return [...frames, ...texts];
}

async function parseWithin(source: ClosableSource, mimeType: string, options: IOptions, timeoutMs: number): Promise<IAudioMetadata> {
  // Loaded at the first upload, not at start-up (a twentieth of a second of every restart).
  const parsing = import('music-metadata').then(({ parseBlob }) => parseBlob(new SourceBlob(source, mimeType), options));
  parsing.catch(() => undefined); // a late rejection after a timeout is expected, not unhandled
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AudioTagsTimeoutError(`reading tags took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([parsing, timeout]);
  } catch (error) {
    if (error instanceof AudioTagsTimeoutError) throw error;
    throw new UnreadableAudioError(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    source.close();
  }
}

function toAudioTags(metadata: IAudioMetadata, fileInfo: { mimeType: string; size: number }): AudioTags {
  const { common, format } = metadata;
  const cover = frontCover(common.picture);
  const reported = positive(format.duration);
  const duration = TRUE_BITRATE.has(fileInfo.mimeType) ? plausibleDuration(reported, positive(format.bitrate), fileInfo.size) : reported;
  const sampleRate = positive(format.sampleRate);
  const pictureStream = format.hasVideo === true && onlyStillPictures(format);
  return {
    title: text(common.title),
    artist: text(common.artist ?? common.artists?.join(', ')),
    album: text(common.album),
    albumArtist: text(common.albumartist),
    genre: text(common.genre?.join(', ')),
    year: integer(common.year, 1, 9999),
    trackNumber: integer(common.track.no, 1, 100_000),
    discNumber: integer(common.disk.no, 1, 10_000),
    durationSeconds: duration ?? null,
    bitrate: integer(format.bitrate === undefined ? undefined : Math.round(format.bitrate), 1, 2_000_000_000),
    sampleRate: integer(sampleRate, 1, 10_000_000),
    codec: text(format.codec),
    musicBrainzRecordingId: mbid(common.musicbrainz_recordingid),
    musicBrainzAlbumId: mbid(common.musicbrainz_albumid),
    musicBrainzArtistId: mbid(common.musicbrainz_albumartistid?.[0]) ?? mbid(common.musicbrainz_artistid?.[0]),
    compilation: common.compilation === true,
    albumArtistSort: text(common.albumartistsort),
    artistSort: text(common.artistsort),
    artists: values(common.artists ?? (common.artist === undefined ? [] : [common.artist])),
    genres: values(common.genre ?? []),
    lyrics: lyricsText(common.lyrics),
    lyricsTags: lyricsTagsOf(metadata),
    picture: cover ? { data: cover.data, format: cover.format } : null,
    hasAudio: Boolean(format.codec || sampleRate || duration || format.hasAudio),
    hasVideo: format.hasVideo === true && !pictureStream,
    pictureStream,
  };
}

/** Video codecs of a still picture rather than of a film. */
const STILL_PICTURE_CODECS = /^(mjpeg|png|bmp|gif|jpeg)$/i;
/** music-metadata's TrackType for video (Matroska's numbering, which the ASF parser uses too). */
const VIDEO_TRACK = 1;

/** Whether every video track is a still picture's. */
function onlyStillPictures(format: IAudioMetadata['format']): boolean {
  const video = format.trackInfo.filter((track) => track.type === VIDEO_TRACK || track.video !== undefined);
  return video.length > 0 && video.every((track) => STILL_PICTURE_CODECS.test(track.codecName ?? ''));
}

/** Formats whose reported bit rate is the real one (CBR or Xing average; PCM), not a nominal hint. */
const TRUE_BITRATE = new Set(['audio/mpeg', 'audio/wav']);

/**
 * Headers (an MP3's Xing frame count, a WAV's data size) describe the file as it was written;
 * a truncated file keeps them. More seconds than its bytes can hold at its bit rate means the
 * end is missing: the bytes decide.
 */
function plausibleDuration(duration: number | undefined, bitrate: number | undefined, size: number): number | undefined {
  if (duration === undefined || bitrate === undefined || size <= 0) return duration;
  const bytesNeeded = (duration * bitrate) / 8;
  return bytesNeeded > size * 1.05 ? (size * 8) / bitrate : duration;
}

/**
 * The front cover when the tags say which picture that is (ID3 picture type 3, FLAC's
 * METADATA_BLOCK_PICTURE type), else the first picture. (music-metadata's own selectCover
 * tests names with `in` on an array, so it never matches.)
 */
function frontCover(pictures: IPicture[] | undefined): IPicture | undefined {
  const usable = (pictures ?? []).filter((picture) => picture.data.length > 0);
  const says = (picture: IPicture, pattern: RegExp) =>
    [picture.type, picture.name, picture.description].some((field) => field !== undefined && pattern.test(field));
  return usable.find((picture) => says(picture, /front/i)) ?? usable.find((picture) => says(picture, /^cover$/i)) ?? usable[0];
}

function lyricsText(lyrics: IAudioMetadata['common']['lyrics']): string | null {
  for (const entry of lyrics ?? []) {
    const value = entry.text ?? (entry.syncText ?? []).map((line) => line.text).join('\n');
    const trimmed = value
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/\u0000/g, '')
      .trim();
    if (trimmed) return trimmed.slice(0, MAX_LYRICS);
  }
  return null;
}

/** The distinct non-empty values of a multi-valued tag, in their order (at most 50). */
function values(list: readonly string[]): string[] {
  const kept: string[] = [];
  for (const value of list) {
    const cleaned = text(value);
    if (cleaned !== null && !kept.includes(cleaned)) kept.push(cleaned);
  }
  return kept.slice(0, 50);
}

function text(value: string | undefined): string | null {
  // Tags sometimes carry NUL terminators or padding; PostgreSQL text refuses NUL outright.
  // eslint-disable-next-line no-control-regex
  const cleaned = value?.replace(/\u0000/g, '').trim();
  return cleaned ? cleaned.slice(0, MAX_TEXT) : null;
}

/** A MusicBrainz id is a UUID; anything else in the tag is left out. */
const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mbid(value: string | undefined): string | null {
  const cleaned = text(value)?.toLowerCase();
  return cleaned !== undefined && MBID.test(cleaned) ? cleaned : null;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

function integer(value: number | null | undefined, min: number, max: number): number | null {
  if (value === null || value === undefined || !Number.isInteger(value) || value < min || value > max) return null;
  return value;
}
