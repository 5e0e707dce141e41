import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** s3rver ships no types; this is the part of it the tests use. */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const BUCKET = 'encore-library';

/**
 * s3rver on loopback, behind a small front that answers the three multipart calls s3rver lacks
 * (ListParts, AbortMultipartUpload, ListMultipartUploads) from s3rver's own files and passes
 * everything else through untouched (signatures included: the Host header is kept). Tus's S3
 * store needs them to learn an upload's offset and to give uploads up.
 */
export async function startMultipartS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-s3rver-'));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port: backendPort } = await s3rver.run();
  const uploadsDir = path.join(dir, BUCKET, '._S3rver_uploads');

  const front = http.createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://s3.test');
    const uploadId = url.searchParams.get('uploadId');
    const key = decodeURIComponent(url.pathname.slice(`/${BUCKET}/`.length));
    if (request.method === 'GET' && uploadId && !url.searchParams.has('partNumber')) return listParts(response, key, uploadId);
    if (request.method === 'DELETE' && uploadId) {
      await fs.rm(path.join(uploadsDir, uploadId), { recursive: true, force: true });
      response.statusCode = 204;
      response.end();
      return;
    }
    if (request.method === 'GET' && url.pathname.replace(/\/$/, '') === `/${BUCKET}` && url.searchParams.has('uploads')) return listUploads(response);
    const forward = http.request({ host: '127.0.0.1', port: backendPort, method: request.method, path: request.url, headers: request.headers }, (answered) => {
      response.writeHead(answered.statusCode ?? 502, answered.headers);
      answered.pipe(response);
    });
    forward.on('error', (error) => response.destroy(error));
    request.pipe(forward);
  }

  async function listParts(response: http.ServerResponse, key: string, uploadId: string): Promise<void> {
    const folder = path.join(uploadsDir, uploadId);
    const names = await fs.readdir(folder).catch(() => undefined);
    if (!names) return xml(response, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`);
    const numbers = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (number) => {
        const [stat, md5] = await Promise.all([fs.stat(path.join(folder, String(number))), fs.readFile(path.join(folder, `${number}.md5`), 'utf8')]);
        return `<Part><PartNumber>${number}</PartNumber><ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`;
      }),
    );
    xml(
      response,
      200,
      `<ListPartsResult><Bucket>${BUCKET}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  }

  async function listUploads(response: http.ServerResponse): Promise<void> {
    const ids = await fs.readdir(uploadsDir).catch(() => [] as string[]);
    const uploads = await Promise.all(
      ids.map(async (id) => {
        const folder = path.join(uploadsDir, id);
        const [key, stat] = await Promise.all([fs.readFile(path.join(folder, 'key'), 'utf8'), fs.stat(folder)]);
        return `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>${stat.birthtime.toISOString()}</Initiated></Upload>`;
      }),
    );
    xml(
      response,
      200,
      `<ListMultipartUploadsResult><Bucket>${BUCKET}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
    );
  }

  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  client.destroy();
  return {
    env: {
      STORAGE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

function xml(response: http.ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
}
