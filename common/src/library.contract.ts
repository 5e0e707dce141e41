import { z } from 'zod';
import { isEmailShaped } from './auth.rules.js';
import { songAnalysis } from './analysis.contract.js';
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
});
export type Song = z.infer<typeof song>;

/** One song (`GET /files/:id`): the song plus its sonic analysis (null until analysed). */
export const songDetail = song.extend({ analysis: songAnalysis.nullable() });
export type SongDetail = z.infer<typeof songDetail>;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

export const listSongsQuery = z.object({
  owner: booleanQuery,
  favorites: booleanQuery,
  q: text('The search text').max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
export type ListSongsQuery = z.input<typeof listSongsQuery>;

export const songList = z.array(song);

export const songIdParams = z.object({
  id: idField('The song id'),
});

export const playUrlResponse = z.object({ url: z.string() });

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
