import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * Music folders (issue 27): folders on the server's disk (MUSIC_FOLDERS) whose songs join the
 * shared collection in place, read only. Encore scans them at start, watches them, rescans them
 * every MUSIC_SCAN_MINUTES and when the instance's owner asks.
 */

/** What started a scan. */
export const SCAN_TRIGGERS = ['start', 'watch', 'schedule', 'manual'] as const;
export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];

/** The last (or running) scan. `total` is 0 until the walk has counted the files. */
export const scanStatus = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  trigger: z.enum(SCAN_TRIGGERS).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Files found so far (audio files only), and how many of them this scan has dealt with. */
  total: z.number().int(),
  done: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  moved: z.number().int(),
  /** Files gone since the last scan: hidden now, removed for good after the grace period. */
  missing: z.number().int(),
  failed: z.number().int(),
  /** Why a scan failed as a whole (not a file's problem: those are in the report). */
  error: z.string().nullable(),
});
export type ScanStatus = z.infer<typeof scanStatus>;

/** A file or folder the scan could not use, with the reason. */
export const scanProblem = z.object({
  folder: z.string(),
  /** Relative to the folder; empty for the folder itself. */
  path: z.string(),
  reason: z.string(),
});
export type ScanProblem = z.infer<typeof scanProblem>;

export const musicFolder = z.object({
  /** Its index in MUSIC_FOLDERS, from 1 (0 is the uploads' library). */
  id: z.number().int(),
  path: z.string(),
  /** The songs it holds now (missing ones not counted). */
  songs: z.number().int(),
  /** False when the folder cannot be read (unmounted, gone, no permission): its songs are kept. */
  available: z.boolean(),
});
export type MusicFolder = z.infer<typeof musicFolder>;

export const musicFoldersResponse = z.object({
  folders: z.array(musicFolder),
  scan: scanStatus,
  /** Whether the caller may start a scan (an admin). */
  canScan: z.boolean(),
  /** Problems of the last scans, the first 500 (the total in `problemCount`). */
  problems: z.array(scanProblem),
  problemCount: z.number().int(),
});
export type MusicFoldersResponse = z.infer<typeof musicFoldersResponse>;

const tags = ['music-folders'];

export const musicFolderEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/music-folders',
    response: musicFoldersResponse,
    summary: 'The music folders, the scan status and the scan report',
    tags,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/music-folders/scan',
    response: scanStatus,
    status: 202,
    summary: 'Scan the music folders now (admins only); no body',
    tags,
  }),
};

export const ONLY_OWNER_SCANS = 'Only an admin can start a scan.';
export const NO_MUSIC_FOLDERS = 'No music folders are configured (MUSIC_FOLDERS).';
