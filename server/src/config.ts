import { z } from 'zod';
import path from 'node:path';

/**
 * Every setting Encore reads, read once from the environment and validated. The README's
 * configuration table lists the same variables; keep the two in step.
 */
const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: z.string().default('30d'),
  JWT_SHORT_EXPIRES_IN: z.string().default('12h'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanish.default(true),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Encore <encore@localhost>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(10),
  /** Which jobs a serving process works: all (in-process), light ones only (light), none (off). */
  WORKER: z.enum(['in-process', 'light', 'off']).default('in-process'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanish.default(false),
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  SIGNIN_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  FFMPEG_PATH: z.string().optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  UPLOAD_MIN_KBPS: z.coerce.number().positive().default(32),
  UPLOAD_STALL_SECONDS: z.coerce.number().positive().default(30),
  UPLOADS_PER_USER: z.coerce.number().int().positive().default(4),
  /** AI playlists: an optional OpenAI-compatible chat endpoint (base URL, e.g. http://127.0.0.1:11434/v1). */
  LLM_API_URL: z.string().url('LLM_API_URL must be a URL such as http://127.0.0.1:11434/v1').optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  LLM_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(8),
  /** Sonic analysis of songs already in the library (the backfill): on by default. */
  ANALYSIS_BACKFILL: booleanish.default(true),
  /** Sonic analysis of each song right after its upload: on by default. */
  ANALYSIS_ON_INGEST: booleanish.default(true),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  jwtExpiresIn: string;
  jwtShortExpiresIn: string;
  storage:
    | { driver: 'local'; root: string }
    | {
        driver: 's3';
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  google: { clientId: string | undefined; jwksUrl: string };
  maxUploadBytes: number;
  worker: 'in-process' | 'light' | 'off';
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  rateLimits: { signInPerIp: number; signInPerUser: number; windowMinutes: number };
  /** FFMPEG_PATH: the ffmpeg to use; unset, the system's on PATH, else the npm-shipped one. */
  ffmpegPath: string | undefined;
  /** How long slow or silent clients may hold a connection (issue 8). */
  timeouts: {
    /** Headers and body of any request but an upload must arrive within this. */
    requestMs: number;
    /** A connection with no traffic either way for this long is closed. */
    idleMs: number;
  };
  /** Uploads through Encore's own signed PUT URLs (local storage). */
  uploads: {
    /** Slowest rate allowed: an upload gets UPLOAD_BASE_SECONDS plus the limit at this rate. */
    minBytesPerSecond: number;
    /** An upload that sends nothing for this long is cut off. */
    stallMs: number;
    /** Uploads one user may have in flight at once. */
    perUser: number;
  };
  /** The web app's built files; absent in API-only tests. */
  webDist: string | undefined;
  /** AI playlists (issue 12): the optional LLM endpoint, and whether the analysis backfill runs. */
  ai: {
    llm: { url: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
    backfill: boolean;
    onIngest: boolean;
  };
}

export class ConfigError extends Error {}

/** Time any upload gets on top of the limit at the minimum rate (connection set-up, a slow start). */
export const UPLOAD_BASE_SECONDS = 60;

/** How long one upload through a signed PUT URL may take: sized by the limit and the minimum rate. */
export function uploadDeadlineMs(config: Pick<Config, 'maxUploadBytes' | 'uploads'>): number {
  return Math.ceil((UPLOAD_BASE_SECONDS + config.maxUploadBytes / config.uploads.minBytesPerSecond) * 1000);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.STORAGE === 's3' && !e.S3_BUCKET) throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
  const storage: Config['storage'] =
    e.STORAGE === 's3'
      ? {
          driver: 's3',
          bucket: e.S3_BUCKET ?? '',
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { driver: 'local', root: path.join(dataDir, 'media') };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL || undefined,
    jwtSecret: e.JWT_SECRET,
    jwtExpiresIn: e.JWT_EXPIRES_IN,
    jwtShortExpiresIn: e.JWT_SHORT_EXPIRES_IN,
    storage,
    mail: { smtpUrl: e.SMTP_URL || undefined, from: e.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    google: { clientId: e.GOOGLE_CLIENT_ID || undefined, jwksUrl: e.GOOGLE_JWKS_URL },
    maxUploadBytes: Math.round(e.MAX_UPLOAD_MB * 1024 * 1024),
    worker: e.WORKER,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimits: {
      signInPerIp: e.SIGNIN_LIMIT_PER_IP,
      signInPerUser: e.SIGNIN_LIMIT_PER_USER,
      windowMinutes: e.RATE_LIMIT_WINDOW_MINUTES,
    },
    ffmpegPath: e.FFMPEG_PATH ? path.resolve(e.FFMPEG_PATH) : undefined,
    timeouts: { requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000, idleMs: e.IDLE_TIMEOUT_SECONDS * 1000 },
    uploads: { minBytesPerSecond: e.UPLOAD_MIN_KBPS * 1024, stallMs: e.UPLOAD_STALL_SECONDS * 1000, perUser: e.UPLOADS_PER_USER },
    webDist: undefined,
    ai: {
      llm: e.LLM_API_URL ? { url: e.LLM_API_URL, apiKey: e.LLM_API_KEY || undefined, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000 } : undefined,
      backfill: e.ANALYSIS_BACKFILL,
      onIngest: e.ANALYSIS_ON_INGEST,
    },
    ...overrides,
  };
}
