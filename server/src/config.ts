import { z } from 'zod';
import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Every setting Encore reads, read once from the environment and validated. The README's
 * configuration table lists the same variables; keep the two in step.
 */
const booleanish = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: z.string().default('30d'),
  JWT_SHORT_EXPIRES_IN: z.string().default('12h'),
  SESSION_RECHECK_SECONDS: z.coerce.number().positive().max(3600).default(60),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanish.default(true),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Encore <encore@localhost>'),
  /** Who may create an account (issue 29): open, invite (an admin's e-mailed invitation) or closed; unset, the admin page decides (open until changed). */
  SIGNUP: z.enum(['open', 'invite', 'closed'], { error: 'SIGNUP must be open, invite or closed' }).optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  /** Single sign-on with OpenID Connect (issue 29): the issuer, this client's id and secret at it. */
  OIDC_ISSUER_URL: z.string().url('OIDC_ISSUER_URL must be a URL such as https://auth.example.com').optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_BUTTON_TEXT: z.string().trim().max(60).optional(),
  OIDC_AUTO_REGISTER: booleanish.default(true),
  OIDC_ADMIN_GROUP: z.string().optional(),
  /** Space-separated; unset: openid profile email (and groups with OIDC_ADMIN_GROUP). */
  OIDC_SCOPES: z.string().optional(),
  /** Sign-in by a reverse proxy's header (Remote-User), honoured only from TRUSTED_PROXY_IPS. */
  TRUSTED_AUTH_HEADER: z.string().optional(),
  TRUSTED_AUTH_EMAIL_HEADER: z.string().default('Remote-Email'),
  TRUSTED_PROXY_IPS: z.string().default(''),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(10),
  /** The embedded database's buffer cache in MB; unset, its own size between 16 and 32. */
  EMBEDDED_DB_CACHE_MB: z.coerce.number().int().min(1).max(4096).optional(),
  /** Seconds between returns of the allocator's freed memory to the system (0: never). */
  MEMORY_TRIM_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** Which jobs a serving process works: all (in-process), light ones only (light), none (off). */
  WORKER: z.enum(['in-process', 'light', 'off']).default('in-process'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanish.default(false),
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  SIGNIN_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  FFMPEG_PATH: z.string().optional(),
  CLIP_MAX_IMAGES: z.coerce.number().int().min(1).max(200).default(30),
  CLIP_MAX_IMAGE_MB: z.coerce.number().positive().max(500).default(20),
  CLIP_MAX_VIDEO_MB: z.coerce.number().positive().max(10_000).default(200),
  CLIP_MAX_VIDEO_MINUTES: z.coerce.number().positive().max(600).default(15),
  CLIP_RENDERS_PER_PROCESS: z.coerce.number().int().min(1).max(16).default(1),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  UPLOAD_MIN_KBPS: z.coerce.number().positive().default(32),
  UPLOAD_STALL_SECONDS: z.coerce.number().positive().default(30),
  UPLOADS_PER_USER: z.coerce.number().int().positive().default(4),
  /** Fair shares (issue 29): the storage one user's uploaded songs may take, in MB; 0: no limit. Admins have none. */
  USER_STORAGE_MB: z.coerce.number().min(0).default(0),
  /** Clip renders one user may have waiting or running at once. */
  USER_MAX_RENDERS: z.coerce.number().int().positive().default(2),
  /** Transcriptions one user may have waiting or running at once. */
  USER_MAX_TRANSCRIPTIONS: z.coerce.number().int().positive().default(2),
  /** Subsonic streams one user may have transcoded at once (of the process's MAX_TRANSCODES). */
  USER_MAX_TRANSCODES: z.coerce.number().int().positive().default(2),
  /** A transcoded stream whose client reads nothing for this long is ended and its slot given back. */
  TRANSCODE_IDLE_SECONDS: z.coerce.number().positive().default(60),
  /** AI playlists (from a prompt, or "more like this") one user may make in a minute. */
  USER_AI_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** LRCLIB (or a server of its API) for "Find lyrics online"; `off` disables the lookup. */
  LYRICS_LOOKUP_URL: z.union([z.literal('off'), z.string().url('LYRICS_LOOKUP_URL must be a URL or off')]).default('https://lrclib.net'),
  LYRICS_LOOKUP_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(10),
  TRANSCRIBE_ENGINE: z.enum(['local', 'openai', 'off']).default('local'),
  /** local: a Whisper model of the hub (ONNX, transformers.js layout); openai: the endpoint's model name. */
  TRANSCRIBE_MODEL: z.string().min(1).optional(),
  /** local: a folder holding the model's files (offline installs); nothing is downloaded then. */
  TRANSCRIBE_MODEL_DIR: z.string().optional(),
  /** local: where models are downloaded from (the hub, or a mirror with its file layout). */
  TRANSCRIBE_MODEL_HOST: z.string().url('TRANSCRIBE_MODEL_HOST must be a URL').default('https://huggingface.co'),
  /** openai: the endpoint's base URL, with or without /v1 (platform/net/openai-endpoint.ts). */
  TRANSCRIBE_API_URL: z.string().url('TRANSCRIBE_API_URL must be a URL such as https://api.openai.com/v1').optional(),
  TRANSCRIBE_API_KEY: z.string().optional(),
  /** One transcription's longest run (an engine that hangs is stopped then). */
  TRANSCRIBE_TIMEOUT_SECONDS: z.coerce.number().positive().default(1800),
  /** AI playlists: an optional OpenAI-compatible chat endpoint (base URL with or without /v1, e.g. http://127.0.0.1:11434). */
  LLM_API_URL: z.string().url('LLM_API_URL must be a URL such as http://127.0.0.1:11434/v1').optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  LLM_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(8),
  /** Sonic analysis of songs already in the library (the backfill): on by default. */
  ANALYSIS_BACKFILL: booleanish.default(true),
  /** Sonic analysis of each song right after its upload: on by default. */
  ANALYSIS_ON_INGEST: booleanish.default(true),
  /** Folders of music read in place (never written), separated by `:` as in PATH. */
  MUSIC_FOLDERS: z.string().default(''),
  /** Minutes between full rescans of the music folders (0: only at start, when watched and when asked). */
  MUSIC_SCAN_MINUTES: z.coerce.number().min(0).max(10_080).default(60),
  /** How changes in the music folders are noticed: file-system events (on), polling (poll: network shares) or not at all (off). */
  MUSIC_WATCH: z.enum(['on', 'poll', 'off']).default('on'),
  /** Days a missing file's song is kept hidden (its likes and playlist places come back with the file). */
  MUSIC_MISSING_GRACE_DAYS: z.coerce.number().min(0).max(3650).default(30),
  /** Whether a link in a music folder to a file or folder outside every music folder is followed (never into DATA_DIR). */
  MUSIC_FOLLOW_LINKS: booleanish.default(false),
  /** ListenBrainz (issue 30): where counted plays of users who linked a token are submitted; off: nobody can link one. */
  LISTENBRAINZ_URL: z.union([z.literal('off'), z.string().url('LISTENBRAINZ_URL must be a URL or off')]).default('https://api.listenbrainz.org'),
  /** Seconds before a listen ListenBrainz could not take is sent again (doubling each time, five times). */
  LISTENBRAINZ_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Prometheus metrics at GET /metrics for requests bearing this token (issue 40); unset: no /metrics on the main port. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Prometheus metrics, without a token, on this port of 127.0.0.1 only. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  /** EMBEDDED_DB_CACHE_MB: PGlite's shared_buffers; undefined sizes it to the database. */
  embeddedDbCacheMb: number | undefined;
  /** MEMORY_TRIM_SECONDS: how often freed memory goes back to the system; 0 never. */
  memoryTrimSeconds: number;
  jwtSecret: string | undefined;
  jwtExpiresIn: string;
  jwtShortExpiresIn: string;
  /** SESSION_RECHECK_SECONDS: how often an open event stream checks its session again (revocations also end it at once). */
  sessionRecheckMs: number;
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
  /** SIGNUP when set: it wins over the admin page's setting. */
  signUp: 'open' | 'invite' | 'closed' | undefined;
  /** OpenID Connect sign-in; undefined without OIDC_ISSUER_URL. */
  oidc: OidcConfig | undefined;
  /** Sign-in by a trusted reverse proxy's header; undefined without TRUSTED_AUTH_HEADER. */
  trustedAuth: TrustedAuthConfig | undefined;
  maxUploadBytes: number;
  worker: 'in-process' | 'light' | 'off';
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  rateLimits: { signInPerIp: number; signInPerUser: number; windowMinutes: number };
  /** FFMPEG_PATH: the ffmpeg to use; unset, the system's on PATH, else the npm-shipped one. */
  ffmpegPath: string | undefined;
  /** Song2Clip: what one create-clip may carry, and renders at once per process. */
  clips: { maxImages: number; maxImageBytes: number; maxVideoBytes: number; maxVideoSeconds: number; rendersPerProcess: number };
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
  /** Fair shares of the machine per user (README, Limits); uploads in flight are `uploads.perUser`. */
  limits: {
    /** USER_STORAGE_MB in bytes; 0: no limit. */
    storageBytes: number;
    renders: number;
    transcriptions: number;
    aiPerMinute: number;
  };
  /** Transcoded Subsonic streams (issue 37): slots one user may hold, and how long a client that reads nothing keeps one. */
  transcodeStreams: { perUser: number; idleMs: number };
  /** Lyrics lookup (LRCLIB API); undefined when LYRICS_LOOKUP_URL=off. */
  lyricsLookup: { baseUrl: string | undefined; timeoutMs: number };
  /** Transcription engines (issue 11). */
  transcription: {
    engine: 'local' | 'openai' | 'off';
    /** The model: a hub id (local) or the endpoint's model name (openai). */
    model: string;
    /** local: read the model from here, never download. */
    modelDir: string | undefined;
    /** local: downloaded models live here (DATA_DIR/models). */
    cacheDir: string;
    /** local: the hub (or mirror) to download from. */
    modelHost: string;
    apiUrl: string | undefined;
    apiKey: string | undefined;
    timeoutMs: number;
  };
  /** The web app's built files; absent in API-only tests. */
  webDist: string | undefined;
  /** The schema migrations to apply at start; undefined: the ones Encore ships (server/drizzle). Not an environment setting. */
  migrationsFolder: string | undefined;
  /** AI playlists (issue 12): the optional LLM endpoint, and whether the analysis backfill runs. */
  ai: {
    llm: { url: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
    backfill: boolean;
    onIngest: boolean;
  };
  /** Music folders (issue 27): absolute paths, the rescan interval, how they are watched, the grace period. */
  musicFolders: { paths: string[]; scanIntervalMs: number; watch: 'on' | 'poll' | 'off'; missingGraceMs: number; followLinks: boolean };
  /** Scrobbling to ListenBrainz (issue 30): the API's base URL (undefined: off) and the first retry's delay. */
  listenBrainz: { baseUrl: string | undefined; retrySeconds: number };
  /** Prometheus metrics (issue 40): the bearer token of /metrics on the main port, and/or a port of 127.0.0.1. */
  metrics: { token: string | undefined; port: number | undefined };
}

export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  /** Undefined: a public client (PKCE only). */
  clientSecret: string | undefined;
  /** The auth screen's button; undefined: the web app's own words ("Sign in with SSO"). */
  buttonText: string | undefined;
  autoRegister: boolean;
  adminGroup: string | undefined;
  scopes: string[];
}

export interface TrustedAuthConfig {
  /** Header names, lower-case as Node reads them. */
  header: string;
  emailHeader: string;
  /** Addresses and CIDR blocks the header is honoured from (the socket's peer, never X-Forwarded-For). */
  proxies: string[];
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

function oidcConfig(e: Env): OidcConfig | undefined {
  if (!e.OIDC_ISSUER_URL) return undefined;
  if (!e.OIDC_CLIENT_ID) throw new ConfigError('Invalid configuration:\n  OIDC_CLIENT_ID: required when OIDC_ISSUER_URL is set');
  const scopes = new Set((e.OIDC_SCOPES ?? `profile email${e.OIDC_ADMIN_GROUP ? ' groups' : ''}`).split(/[\s,]+/).filter(Boolean));
  return {
    issuerUrl: e.OIDC_ISSUER_URL,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET || undefined,
    buttonText: e.OIDC_BUTTON_TEXT || undefined,
    autoRegister: e.OIDC_AUTO_REGISTER,
    adminGroup: e.OIDC_ADMIN_GROUP || undefined,
    scopes: ['openid', ...[...scopes].filter((scope) => scope !== 'openid')],
  };
}

/** An address (`192.168.1.10`, `::1`) or a block (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrBlock(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

function trustedAuthConfig(e: Env): TrustedAuthConfig | undefined {
  const header = e.TRUSTED_AUTH_HEADER?.trim().toLowerCase();
  if (!header) return undefined;
  const problems: string[] = [];
  const emailHeader = e.TRUSTED_AUTH_EMAIL_HEADER.trim().toLowerCase();
  if (!HEADER_NAME.test(header)) problems.push('TRUSTED_AUTH_HEADER: not a header name');
  if (!HEADER_NAME.test(emailHeader)) problems.push('TRUSTED_AUTH_EMAIL_HEADER: not a header name');
  const proxies = e.TRUSTED_PROXY_IPS.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (proxies.length === 0) problems.push('TRUSTED_PROXY_IPS: required when TRUSTED_AUTH_HEADER is set (the addresses of the proxy)');
  for (const entry of proxies) if (!isAddressOrBlock(entry)) problems.push(`TRUSTED_PROXY_IPS: "${entry}" is not an IP address or CIDR block`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return { header, emailHeader, proxies };
}

/** The default models: a multilingual Whisper for the local engine, OpenAI's name for the API. */
export const DEFAULT_LOCAL_WHISPER_MODEL = 'onnx-community/whisper-base_timestamped';
export const DEFAULT_OPENAI_TRANSCRIBE_MODEL = 'whisper-1';

export class ConfigError extends Error {}

/** Time any upload gets on top of the limit at the minimum rate (connection set-up, a slow start). */
export const UPLOAD_BASE_SECONDS = 60;

/** How long a create-clip body may take: the largest it may be at the minimum upload rate. */
export function clipUploadDeadlineMs(config: Pick<Config, 'clips' | 'uploads'>): number {
  const largest = Math.max(config.clips.maxVideoBytes, config.clips.maxImages * config.clips.maxImageBytes);
  return Math.ceil((UPLOAD_BASE_SECONDS + largest / config.uploads.minBytesPerSecond) * 1000);
}

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
    embeddedDbCacheMb: e.EMBEDDED_DB_CACHE_MB,
    memoryTrimSeconds: e.MEMORY_TRIM_SECONDS,
    jwtSecret: e.JWT_SECRET,
    jwtExpiresIn: e.JWT_EXPIRES_IN,
    jwtShortExpiresIn: e.JWT_SHORT_EXPIRES_IN,
    sessionRecheckMs: e.SESSION_RECHECK_SECONDS * 1000,
    storage,
    mail: { smtpUrl: e.SMTP_URL || undefined, from: e.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    google: { clientId: e.GOOGLE_CLIENT_ID || undefined, jwksUrl: e.GOOGLE_JWKS_URL },
    signUp: e.SIGNUP,
    oidc: oidcConfig(e),
    trustedAuth: trustedAuthConfig(e),
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
    clips: {
      maxImages: e.CLIP_MAX_IMAGES,
      maxImageBytes: Math.round(e.CLIP_MAX_IMAGE_MB * 1024 * 1024),
      maxVideoBytes: Math.round(e.CLIP_MAX_VIDEO_MB * 1024 * 1024),
      maxVideoSeconds: Math.round(e.CLIP_MAX_VIDEO_MINUTES * 60),
      rendersPerProcess: e.CLIP_RENDERS_PER_PROCESS,
    },
    timeouts: { requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000, idleMs: e.IDLE_TIMEOUT_SECONDS * 1000 },
    uploads: { minBytesPerSecond: e.UPLOAD_MIN_KBPS * 1024, stallMs: e.UPLOAD_STALL_SECONDS * 1000, perUser: e.UPLOADS_PER_USER },
    limits: {
      storageBytes: Math.round(e.USER_STORAGE_MB * 1024 * 1024),
      renders: e.USER_MAX_RENDERS,
      transcriptions: e.USER_MAX_TRANSCRIPTIONS,
      aiPerMinute: e.USER_AI_PER_MINUTE,
    },
    transcodeStreams: { perUser: e.USER_MAX_TRANSCODES, idleMs: e.TRANSCODE_IDLE_SECONDS * 1000 },
    lyricsLookup: {
      baseUrl: e.LYRICS_LOOKUP_URL === 'off' ? undefined : e.LYRICS_LOOKUP_URL.replace(/\/+$/, ''),
      timeoutMs: e.LYRICS_LOOKUP_TIMEOUT_SECONDS * 1000,
    },
    transcription: {
      engine: e.TRANSCRIBE_ENGINE,
      model: e.TRANSCRIBE_MODEL ?? (e.TRANSCRIBE_ENGINE === 'openai' ? DEFAULT_OPENAI_TRANSCRIBE_MODEL : DEFAULT_LOCAL_WHISPER_MODEL),
      modelDir: e.TRANSCRIBE_MODEL_DIR ? path.resolve(e.TRANSCRIBE_MODEL_DIR) : undefined,
      cacheDir: path.join(dataDir, 'models'),
      modelHost: e.TRANSCRIBE_MODEL_HOST.replace(/\/+$/, ''),
      apiUrl: e.TRANSCRIBE_API_URL?.replace(/\/+$/, ''),
      apiKey: e.TRANSCRIBE_API_KEY || undefined,
      timeoutMs: e.TRANSCRIBE_TIMEOUT_SECONDS * 1000,
    },
    webDist: undefined,
    migrationsFolder: undefined,
    ai: {
      llm: e.LLM_API_URL ? { url: e.LLM_API_URL, apiKey: e.LLM_API_KEY || undefined, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000 } : undefined,
      backfill: e.ANALYSIS_BACKFILL,
      onIngest: e.ANALYSIS_ON_INGEST,
    },
    musicFolders: {
      paths: [
        ...new Set(
          e.MUSIC_FOLDERS.split(path.delimiter)
            .map((folder) => folder.trim())
            .filter((folder) => folder !== '')
            .map((folder) => path.resolve(folder)),
        ),
      ],
      scanIntervalMs: e.MUSIC_SCAN_MINUTES * 60_000,
      watch: e.MUSIC_WATCH,
      missingGraceMs: e.MUSIC_MISSING_GRACE_DAYS * 24 * 3600_000,
      followLinks: e.MUSIC_FOLLOW_LINKS,
    },
    listenBrainz: {
      baseUrl: e.LISTENBRAINZ_URL === 'off' ? undefined : e.LISTENBRAINZ_URL.replace(/\/+$/, ''),
      retrySeconds: e.LISTENBRAINZ_RETRY_SECONDS,
    },
    metrics: { token: e.METRICS_TOKEN || undefined, port: e.METRICS_PORT },
    ...overrides,
  };
}
