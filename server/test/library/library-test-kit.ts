import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { LightMyRequestResponse } from 'fastify';
import type { Song } from '@encore/common/library.contract';
import { songs } from '../../src/features/library/library.schema.js';
import { engines, startTestApp, type Engine, type TestApp } from '../support/test-app.js';

/** s3rver ships no types; this is the part of it the tests use. */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export type StorageDriver = 'local' | 's3';
export interface Setup {
  engine: Engine;
  storage: StorageDriver;
}

/** Every database engine on local storage, plus S3 (a real s3rver on loopback) on PGlite. */
export const setups: Setup[] = [...engines.map((engine) => ({ engine, storage: 'local' as const })), { engine: 'pglite', storage: 's3' }];
export const localSetups: Setup[] = engines.map((engine) => ({ engine, storage: 'local' as const }));

export interface LibraryApp extends TestApp {
  driver: StorageDriver;
  /** Local driver: the media folder, to prove nothing is left behind. */
  mediaDir: string;
}

/** Starts Encore on the given database and storage (spinning up s3rver and a bucket for S3). */
export async function startLibraryApp(setup: Setup, env: Record<string, string> = {}): Promise<LibraryApp> {
  let s3: { env: Record<string, string>; close(): Promise<void> } | undefined;
  if (setup.storage === 's3') s3 = await startS3();
  const t = await startTestApp(setup.engine, { ...s3?.env, ...env });
  return {
    ...t,
    driver: setup.storage,
    mediaDir: path.join(t.dataDir, 'media'),
    async close() {
      await t.close();
      await s3?.close();
    },
  };
}

async function startS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: 'encore-library' }));
  client.destroy();
  return {
    env: {
      STORAGE: 's3',
      S3_BUCKET: 'encore-library',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function account(t: TestApp, userName: string): Promise<string> {
  const password = 'library password 1';
  await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password } });
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password } });
  return response.json<{ token: string }>().token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A plain answer, whether it came through inject (Encore's own URLs) or fetch (S3). */
export interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function fromInject(response: LightMyRequestResponse): Fetched {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = String(value);
  return { status: response.statusCode, headers, body: response.rawPayload };
}

/**
 * Requests a signed storage URL the way a browser would: Encore's own URLs (local driver)
 * through inject with the URL's path, anything else (s3rver) with a real fetch.
 */
export async function fetchUrl(
  t: TestApp,
  url: string,
  init: { method?: 'GET' | 'PUT' | 'HEAD'; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Fetched> {
  const parsed = new URL(url, 'http://encore.test');
  if (parsed.origin === 'http://encore.test') {
    return fromInject(
      await t.app.inject({
        method: init.method ?? 'GET',
        url: parsed.pathname + parsed.search,
        headers: init.headers ?? {},
        ...(init.body ? { payload: init.body } : {}),
      }),
    );
  }
  const response = await fetch(parsed, { method: init.method ?? 'GET', headers: init.headers ?? {}, ...(init.body ? { body: init.body } : {}) });
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: Buffer.from(await response.arrayBuffer()) };
}

export interface UploadResult {
  key: string;
  put: Fetched;
  complete: LightMyRequestResponse;
  song: Song;
}

/** The three steps of SPEC 7: presigned URL, PUT, upload-complete. */
export async function upload(t: TestApp, token: string, file: string, options: { fileName?: string; contentType?: string } = {}): Promise<UploadResult> {
  const fileName = options.fileName ?? path.basename(file);
  const contentType = options.contentType ?? 'audio/mpeg';
  const key = await presign(t, token, fileName, contentType);
  const put = await fetchUrl(t, key.url, { method: 'PUT', headers: { 'content-type': contentType }, body: await fs.readFile(file) });
  const complete = await completeUpload(t, token, { fileName, s3key: key.key, fileType: contentType });
  return { key: key.key, put, complete, song: complete.json<Song>() };
}

export async function presign(t: TestApp, token: string, fileName: string, contentType?: string): Promise<{ url: string; key: string }> {
  const query = new URLSearchParams({ fileName, ...(contentType ? { contentType } : {}) });
  const response = await t.app.inject({ url: `/api/upload/presigned-url?${query.toString()}`, headers: bearer(token) });
  if (response.statusCode !== 200) throw new Error(`presign failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export function completeUpload(t: TestApp, token: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/upload/upload-complete',
    headers: bearer(token),
    payload: { fileType: 'audio/mpeg', size: 0, folderId: 0, ...body },
  });
}

/** Every file under the local media folder (sidecars included); empty for S3. */
export async function mediaFiles(t: LibraryApp): Promise<string[]> {
  if (t.driver !== 'local') return [];
  const entries = await fs.readdir(t.mediaDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(t.mediaDir, path.join(entry.parentPath, entry.name)));
}

export async function songRows(t: TestApp): Promise<{ id: number; storageKey: string; coverKey: string | null; coverThumbKey: string | null }[]> {
  return t.app.encore.platform.database.db
    .select({ id: songs.id, storageKey: songs.storageKey, coverKey: songs.coverKey, coverThumbKey: songs.coverThumbKey })
    .from(songs);
}
