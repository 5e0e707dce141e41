import { z } from 'zod';
import { analysisProgress } from './analysis.contract.js';
import { signUpMode } from './auth.contract.js';
import { defineEndpoint } from './endpoint.js';
import { scanStatus } from './music-folders.contract.js';

/** Every error answer of the API (DECISIONS, wire contract). */
export const errorResponse = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const componentHealth = z.object({
  status: z.enum(['ok', 'error']),
  driver: z.string(),
  detail: z.string().optional(),
});

/** The ffmpeg filters and encoders media features rely on; health lists those the binary lacks. */
export const ffmpegFeatures = ['xfade', 'subtitles', 'ass', 'libx264', 'libvpx-vp9', 'libopus'] as const;
export type FfmpegFeature = (typeof ffmpegFeatures)[number];

/**
 * ffmpeg as found by this process: `driver` is 'ffmpeg'; `source` says where it came from
 * (FFMPEG_PATH, the system's PATH, or the npm-shipped binary). A lacking feature does not make
 * the status 'error'; no runnable binary does (and then `detail` says why).
 */
export const ffmpegHealth = componentHealth.extend({
  source: z.enum(['configured', 'system', 'bundled']).optional(),
  version: z.string().optional(),
  lacks: z.array(z.enum(ffmpegFeatures)),
});
export type FfmpegHealth = z.infer<typeof ffmpegHealth>;

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: componentHealth,
  storage: componentHealth,
  jobs: componentHealth,
  mail: componentHealth,
  ffmpeg: ffmpegHealth,
  /** Sonic analysis of the library ("Analysed 412 of 530 songs"); absent when it cannot be counted. */
  analysis: analysisProgress.optional(),
  /** The music folders' scan ("Scanning: 12,400 of 48,000 files" while it runs); absent without MUSIC_FOLDERS. */
  musicFolders: scanStatus.extend({ text: z.string().nullable() }).optional(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** What the web app needs to know about the server's configuration. */
export const clientConfigResponse = z.object({
  googleClientId: z.string().nullable(),
  maxUploadMb: z.number(),
  /**
   * Single sign-on the auth screen offers: OpenID Connect (its button's text, null for the web
   * app's own words) and sign-in by a trusted reverse proxy's header. Absent: neither.
   */
  sso: z.object({ oidc: z.object({ buttonText: z.string().nullable() }).nullable(), trustedHeader: z.boolean() }).optional(),
  /**
   * Who may create an account: the auth screen hides sign-up when closed, and asks for an
   * invitation link under invite. Absent (an older server): open.
   */
  signUp: signUpMode.default('open'),
});
export type ClientConfigResponse = z.infer<typeof clientConfigResponse>;

const tags = ['system'];

/** The server's own routes: its health and the settings the web app reads. Neither needs a user. */
export const systemEndpoints = {
  /** 200 when every component is ok, 503 (same body) when one is not. */
  health: defineEndpoint({ method: 'GET', path: '/health', response: healthResponse, summary: 'Health of the database, storage, jobs, mail and ffmpeg', tags }),
  config: defineEndpoint({ method: 'GET', path: '/config', response: clientConfigResponse, summary: 'Settings the web app needs', tags }),
};
