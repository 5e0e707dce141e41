import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { ConflictError, NotFoundError } from '../errors/app-errors.js';
import type { Logger } from '../logger.js';
import { writeNewFile } from '../fs/atomic-write.js';
import { fileTooLargeError } from '../fs/byte-limit.js';
import { isErrno } from '../fs/errno.js';
import { attachmentDisposition } from './content-disposition.js';
import { assertValidContentType, assertValidKey, assertValidReadRange, rangeNotSatisfiable } from './storage-key.js';
import type { ListedObject, ReadRange, Storage, StoredObject } from './storage.types.js';

/** Upload spools in the OS temp folder: `encore-upload-<16 hex>`. */
const SPOOL_PREFIX = 'encore-upload-';
const SPOOL_FILE = /^encore-upload-[0-9a-f]{16}$/;

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  logger: Logger;
}

/**
 * Any S3-compatible store. Browsers talk to it directly through presigned URLs; the server
 * uses the same keys for ingest, rendering and deletion.
 */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly logger: Logger;

  constructor(options: S3StorageOptions) {
    const { accessKeyId, secretAccessKey } = options;
    this.bucket = options.bucket;
    this.logger = options.logger;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      // Without explicit keys the SDK's default chain applies (env, profile, instance role).
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
      // The newer default checksums are not understood by many S3-compatible stores and
      // would also have to be sent by browsers using presigned URLs; only use them if required.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async presignPut(key: string, opts: { contentType?: string; expiresInSeconds: number }): Promise<string> {
    const ContentType = assertValidContentType(opts.contentType);
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: assertValidKey(key), ContentType });
    // Signing the header binds the type: the browser must send exactly this Content-Type,
    // as with the local driver's URLs, so an upload cannot pick its own.
    const signableHeaders = ContentType === undefined ? undefined : new Set(['content-type']);
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds, signableHeaders });
  }

  /**
   * Whether this storage's credentials signed `url` as a presigned GET (SigV4 in the query) and
   * it has not expired at `now`: the same request is signed again with the URL's date and
   * lifetime, and the two signatures compared. Nothing is fetched.
   */
  async presignedGetByUs(url: URL, now: number): Promise<boolean> {
    const signature = url.searchParams.get('X-Amz-Signature');
    const date = parseAmzDate(url.searchParams.get('X-Amz-Date'));
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    if (!signature || !/^[0-9a-f]{64}$/.test(signature) || date === undefined || !Number.isInteger(expires) || expires <= 0 || date + expires * 1000 < now)
      return false;
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (name !== 'X-Amz-Signature') query[name] = value;
    const signed = await new S3RequestPresigner(this.client.config).presign(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query,
        headers: { host: url.host },
      },
      { signingDate: new Date(date), expiresIn: expires },
    );
    const expected = signed.query?.['X-Amz-Signature'];
    return typeof expected === 'string' && expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
  }

  async presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; contentType?: string }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: assertValidKey(key),
      ResponseContentType: assertValidContentType(opts.contentType),
      ResponseContentDisposition: opts.downloadName === undefined ? undefined : attachmentDisposition(opts.downloadName),
    });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds });
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; maxBytes?: number } = {}): Promise<void> {
    const Key = assertValidKey(key);
    const ContentType = assertValidContentType(opts.contentType);
    if (!(body instanceof Readable)) {
      if (opts.maxBytes !== undefined && body.length > opts.maxBytes) throw fileTooLargeError(opts.maxBytes);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, ContentType, Body: body, ContentLength: body.length }));
      return;
    }
    // PutObject needs the length up front; spooling to a temp file gives it, enforces the
    // limit before anything reaches the bucket, and keeps memory flat.
    const spool = path.join(os.tmpdir(), `${SPOOL_PREFIX}${randomBytes(8).toString('hex')}`);
    const limit = opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes };
    const ContentLength = await writeNewFile(spool, body, { ...limit, mode: 0o600 });
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, ContentType, Body: createReadStream(spool), ContentLength }));
    } finally {
      await fs.rm(spool, { force: true });
    }
    this.logger.debug({ key }, 'stored object');
  }

  async get(key: string, range?: ReadRange): Promise<StoredObject> {
    const Key = assertValidKey(key);
    assertValidReadRange(range);
    const Range = range === undefined ? undefined : `bytes=${range.start}-${range.end ?? ''}`;
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key, Range }));
      if (!(result.Body instanceof Readable)) throw new Error('S3 GetObject returned no readable body');
      const contentType = result.ContentType;
      const served = parseContentRange(result.ContentRange);
      if (served) return { stream: result.Body, size: served.size, contentType, range: { start: served.start, end: served.end } };
      const size = result.ContentLength ?? 0;
      if (range === undefined) return { stream: result.Body, size, contentType };
      // A store that ignored the Range header: the whole object came back, still a valid answer.
      return { stream: result.Body, size, contentType, range: { start: 0, end: size - 1 } };
    } catch (error) {
      if (isMissingObject(error)) throw new NotFoundError();
      if (isS3Error(error, 'InvalidRange', 416)) throw rangeNotSatisfiable((await this.stat(key))?.size ?? 0);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string | undefined } | null> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: assertValidKey(key) }));
      return { size: result.ContentLength ?? 0, contentType: result.ContentType };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    // A spool like an upload's: removeStaleTempFiles finds it after a crash.
    const spool = path.join(os.tmpdir(), `${SPOOL_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      await writeNewFile(spool, (await this.get(key)).stream, { mode: 0o600 });
      return await use(spool);
    } finally {
      await fs.rm(spool, { force: true });
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: assertValidKey(key) }));
  }

  async move(from: string, to: string): Promise<void> {
    const source = assertValidKey(from);
    const Key = assertValidKey(to);
    if (source === Key) throw new ConflictError('That storage key is already taken.');
    // If-None-Match makes the copy itself refuse an existing target on stores that support it
    // (AWS S3); the HEAD before it covers stores that ignore the header.
    if (await this.stat(Key)) throw new ConflictError('That storage key is already taken.');
    try {
      // A copy is of one version of the source: a PUT to `from` meanwhile does not mix in.
      const CopySource = `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`;
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key, CopySource, IfNoneMatch: '*', MetadataDirective: 'COPY' }));
    } catch (error) {
      if (isMissingObject(error)) throw new NotFoundError();
      if (isS3Error(error, 'PreconditionFailed', 412)) throw new ConflictError('That storage key is already taken.');
      throw error;
    }
    await this.delete(source);
  }

  /**
   * Pages with ListObjects' Marker (the last key seen) rather than V2's continuation token:
   * every S3-compatible store implements it the same way (s3rver's V2 tokens need DES,
   * which current OpenSSL no longer offers).
   */
  async *list(prefix: string): AsyncIterable<ListedObject> {
    let Marker: string | undefined;
    for (;;) {
      const page = await this.client.send(new ListObjectsCommand({ Bucket: this.bucket, Prefix: prefix, Marker }));
      const contents = page.Contents ?? [];
      for (const object of contents) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
      const last = contents.at(-1)?.Key;
      if (!page.IsTruncated || last === undefined) return;
      Marker = page.NextMarker ?? last;
    }
  }

  /** The bucket has no temp objects (a PUT is all or nothing); the local upload spools do. */
  async removeStaleTempFiles(olderThan: Date): Promise<number> {
    const dir = os.tmpdir();
    let removed = 0;
    for (const name of await fs.readdir(dir)) {
      if (!SPOOL_FILE.test(name)) continue;
      try {
        const info = await fs.stat(path.join(dir, name));
        if (!info.isFile() || info.mtime >= olderThan) continue;
        await fs.rm(path.join(dir, name), { force: true });
        removed += 1;
      } catch (error) {
        if (!isErrno(error, 'ENOENT')) throw error;
      }
    }
    return removed;
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}

function parseContentRange(header: string | undefined): { start: number; end: number; size: number } | undefined {
  const match = header === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) };
}

function isS3Error(error: unknown, name: string, status: number): boolean {
  if (!(error instanceof Error)) return false;
  const meta = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return error.name === name || meta?.httpStatusCode === status;
}

/** NoSuchKey (GET) or a bare 404 (HEAD); a missing bucket is a misconfiguration, not a 404. */
function isMissingObject(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'NoSuchBucket') return false;
  return isS3Error(error, 'NoSuchKey', 404) || error.name === 'NotFound';
}

/** SigV4's X-Amz-Date (`20261124T150000Z`) as epoch milliseconds. */
function parseAmzDate(value: string | null): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}
