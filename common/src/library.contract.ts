import { z } from 'zod';
import { isEmailShaped } from './auth.rules.js';
import { replayGain, songAnalysis } from './analysis.contract.js';
import { defineEndpoint } from './endpoint.js';
import { folderIdField, idField, text } from './input.contract.js';

/**
 * The song as the API shows it: the fields of SPEC 3 (id, displayName, fileType, s3Key, size,
 * uploadedAt, isLiked, transcript, folderId) plus what Encore reads from the file's tags.
 */
export const song = z.object({
  id: z.number().int(),
  displayName: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  s3Key: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
  isLiked: z.boolean(),
  transcript: z.string().nullable(),
  folderId: z.number().int(),
  title: z.string().nullable(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  albumArtist: z.string().nullable(),
  genre: z.string().nullable(),
  year: z.number().int().nullable(),
  trackNumber: z.number().int().nullable(),
  discNumber: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  bitrate: z.number().nullable(),
  sampleRate: z.number().nullable(),
  hasCover: z.boolean(),
  /** The uploader's user name; only the uploader may delete the song. */
  uploadedBy: z.string(),
  isOwner: z.boolean(),
  /**
   * The browse pages of the song (issue 38): `/artists/{artistId}` (its first track artist, else
   * its album's artist; Subsonic's song artistId is the album's artist) and `/albums/{albumId}`.
   * Null for a song the browse index has not read yet. Defaults read an older server's answer.
   */
  artistId: z.string().nullable().default(null),
  albumId: z.string().nullable().default(null),
});
export type Song = z.infer<typeof song>;

/** One song (`GET /files/:id`): the song plus its sonic analysis (null until analysed). */
export const songDetail = song.extend({
  analysis: songAnalysis.nullable(),
  /** ReplayGain 2.0 (dB to -18 LUFS, linear peaks): null until the analysis measured the song. */
  replayGain: replayGain.nullable().default(null),
  /** The caller's plays of the song (0 when never) and the last one (ISO time, null when never). Defaults read an older server's answer. */
  playCount: z.number().int().min(0).default(0),
  lastPlayedAt: z.string().nullable().default(null),
});
export type SongDetail = z.infer<typeof songDetail>;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** The music page's orders; `recent` (newest first) is the default. */
export const SONG_SORTS = ['recent', 'title', 'artist', 'album'] as const;
export type SongSort = (typeof SONG_SORTS)[number];

/** The response header of `GET /files` that carries how many songs match (all pages together). */
export const TOTAL_COUNT_HEADER = 'x-total-count';

export const listSongsQuery = z.object({
  owner: booleanQuery,
  favorites: booleanQuery,
  q: text('The search text').max(200).optional(),
  sort: z.enum(SONG_SORTS, { error: `sort must be one of ${SONG_SORTS.join(', ')}` }).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
export type ListSongsQuery = z.input<typeof listSongsQuery>;

/** A song in a list: everything but the lyrics, which only the song itself (`GET /files/:id`) carries. */
export const songListEntry = song.omit({ transcript: true });
export type SongListEntry = z.infer<typeof songListEntry>;
export const songList = z.array(songListEntry);

export const songIdParams = z.object({
  id: idField('The song id'),
});

export const playUrlResponse = z.object({ url: z.string() });
/** `browser` (the only format, and what no format means): the original when browsers play it, else a browser copy. */
export const playUrlQuery = z.object({
  format: z.enum(['browser'], { error: 'format must be browser' }).optional(),
});

export const likeResponse = z.object({ id: z.number().int(), isLiked: z.boolean() });

export const presignedUrlQuery = z.object({
  fileName: text('The file name', 'fileName is required').trim().min(1, { error: 'fileName is required' }).max(255, { error: 'The file name is too long' }),
  contentType: text('The content type').max(200).optional(),
});
export const presignedUrlResponse = z.object({ url: z.string(), key: z.string() });

export const uploadCompleteBody = z.object({
  fileName: text('The file name', 'fileName is required').trim().min(1, { error: 'fileName is required' }).max(255),
  fileType: text('The file type').max(200).optional().default(''),
  size: z.number().int().min(0).optional(),
  s3key: text('The storage key', 's3key is required').min(1, { error: 's3key is required' }).max(512),
  folderId: folderIdField.optional().default(0),
});
export type UploadCompleteBody = z.input<typeof uploadCompleteBody>;

export const extractImageQuery = z.object({
  fileKey: text('The file key', 'fileKey is required').min(1, { error: 'fileKey is required' }).max(512),
  size: z.enum(['thumb', 'full']).optional().default('full'),
});

/** The share dialog's texts (SPEC 5 and 8); the server answers with the same ones. */
export const SHARE_MESSAGES = {
  emailRequired: 'Please enter an email address.',
  emailInvalid: 'Please enter a valid email address.',
  songMissing: 'Failed to retrieve the song URL. Please try again.',
  sent: 'Email sent successfully!',
  linkInvalid: 'This share link is invalid or has expired.',
} as const;

/** One plain address: the shared pattern, and nothing a mail header could read as a list. */
export function isShareableEmail(value: string): boolean {
  return isEmailShaped(value) && !/[,;<>"()[\]\\]/.test(value);
}

/**
 * SPEC 7 sends `{Email, songUrl}`; `email` and `songId` are accepted too. The song is found
 * from songId, or from songUrl (the song page `/music/<id>` or the play URL); the URL itself
 * is never mailed.
 */
export const sendSongLinkBody = z
  .object({
    Email: text('Email').max(254).optional(),
    email: text('Email').max(254).optional(),
    songUrl: text('The song URL').max(2000).optional(),
    songId: idField('The song id').optional(),
  })
  .transform((body) => ({ email: (body.Email ?? body.email ?? '').trim(), songUrl: body.songUrl, songId: body.songId }))
  .superRefine((body, ctx) => {
    const message = !body.email
      ? SHARE_MESSAGES.emailRequired
      : !isShareableEmail(body.email)
        ? SHARE_MESSAGES.emailInvalid
        : body.songId === undefined && !body.songUrl?.trim()
          ? SHARE_MESSAGES.songMissing
          : undefined;
    if (message) ctx.addIssue({ code: 'custom', message });
  });
export type SendSongLinkBody = z.input<typeof sendSongLinkBody>;

export const sharedSong = z.object({
  displayName: z.string(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  hasCover: z.boolean(),
  streamUrl: z.string(),
  coverUrl: z.string().nullable(),
  sharedBy: z.string(),
  expiresAt: z.string(),
});
export type SharedSong = z.infer<typeof sharedSong>;

export const sendSongLinkResponse = z.object({ success: z.boolean(), message: z.string() });
export type SendSongLinkResponse = z.infer<typeof sendSongLinkResponse>;

export const shareTokenParams = z.object({ token: text('The share token').max(1000) });

/** `/files…`: browse, play, like, download and delete songs; every one needs a signed-in user. */
export const libraryEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/files',
    query: listSongsQuery,
    response: songList.describe(`The page of songs; the ${TOTAL_COUNT_HEADER} header carries the number of matching songs`),
    summary: 'All songs, newest first; owner=true for mine, favorites=true for every song I liked (whoever uploaded it), q to search',
    description:
      'A page of songs (limit, offset) without their lyrics (GET /files/{id} has them). The X-Total-Count header says how many songs match in all. ' +
      'sort: recent (newest first, the default), title, artist (then album and track) or album (then track). ' +
      'q: every word must be in the title, artist or album, ignoring case and accents; words of five letters or more also match with one typo.',
    tags: ['library'],
  }),
  /** The image's bytes (or 204 when the song has none, 304 when the caller has it): no response schema. */
  cover: defineEndpoint({
    method: 'GET',
    path: '/files/extract-image',
    query: extractImageQuery,
    summary: "A song's cover art by the song's storage key (204 when it has none)",
    tags: ['library'],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/files/:id',
    params: songIdParams,
    response: songDetail,
    summary: "One song, with its sonic analysis and ReplayGain (null until analysed) and the caller's play count and last play",
    tags: ['library'],
  }),
  playUrl: defineEndpoint({
    method: 'GET',
    path: '/files/:id/play',
    params: songIdParams,
    query: playUrlQuery,
    response: playUrlResponse,
    summary: 'A short-lived URL that streams the song (answers HTTP Range requests)',
    description:
      'format=browser (also the default): the original file when every browser plays it, else an AAC copy (M4A) made by ffmpeg at the first call ' +
      'and kept, so that call may take a few seconds; both answer Range requests, so the player seeks in either.',
    tags: ['library'],
  }),
  toggleLike: defineEndpoint({
    method: 'POST',
    path: '/files/:id/like',
    params: songIdParams,
    response: likeResponse,
    summary: 'Like or unlike a song; returns the new state',
    tags: ['library'],
  }),
  /** The file's bytes as an attachment: no response schema. */
  download: defineEndpoint({
    method: 'GET',
    path: '/files/:id/download',
    params: songIdParams,
    summary: 'The original file as an attachment under its original name',
    tags: ['library'],
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/files/:id',
    params: songIdParams,
    status: 204,
    summary: 'Delete a song and its files (uploader only)',
    tags: ['library'],
  }),
};

/** `/upload…`: the presigned URL and upload-complete steps of SPEC 7's three-step upload. */
export const uploadEndpoints = {
  presignedUrl: defineEndpoint({
    method: 'GET',
    path: '/upload/presigned-url',
    query: presignedUrlQuery,
    response: presignedUrlResponse,
    summary: 'A URL to PUT one file to (send contentType to bind the Content-Type the PUT must carry)',
    tags: ['upload'],
  }),
  /** 201 with the new song; 200 with the same song when it was already added (a replay). */
  complete: defineEndpoint({
    method: 'POST',
    path: '/upload/upload-complete',
    body: uploadCompleteBody,
    response: song,
    status: 201,
    summary: 'Check the uploaded bytes, read tags and cover art, add the song (201; 200 when already added)',
    tags: ['upload'],
  }),
};

/**
 * Resumable uploads (tus 1.0.0, issue 27), below /api: POST `path` creates an upload
 * (Upload-Length, Upload-Metadata `filename`, `filetype`, optional `folderId`), PATCH
 * `path/<id>` sends bytes from Upload-Offset, HEAD `path/<id>` answers how many arrived, DELETE
 * `path/<id>` gives it up. Signed in only; another user's upload is 404. The PATCH that
 * completes the upload runs upload-complete's checks itself and answers the new song's id in
 * `songIdHeader` (a refusal is that PATCH's 413/415 with `{message}`): nothing else to call.
 */
export const resumableUpload = {
  path: '/upload/tus',
  songIdHeader: 'Encore-Song-Id',
  /**
   * The browser sends files larger than this through tus, in PATCHes of this size (also the S3
   * part size); smaller ones fit one request and take SPEC 7's three steps.
   */
  chunkBytes: 8 * 1024 * 1024,
} as const;

/** Sending a song by e-mail (signed in) and the public share page's data (no account). */
export const sharingEndpoints = {
  sendSongLink: defineEndpoint({
    method: 'POST',
    path: '/email/send-song-link',
    body: sendSongLinkBody,
    response: sendSongLinkResponse,
    summary: 'E-mail a link to a public page that plays the song (expires after 30 days)',
    tags: ['sharing'],
  }),
  sharedSong: defineEndpoint({
    method: 'GET',
    path: '/share/:token',
    params: shareTokenParams,
    response: sharedSong,
    summary: 'A shared song for the public share page, with short-lived stream and cover URLs',
    tags: ['sharing'],
  }),
};
