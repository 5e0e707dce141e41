import { libraryEndpoints, presignedUrlResponse, uploadEndpoints, type Song, type UploadCompleteBody } from '@encore/common/library.contract';
import { errorResponse } from '@encore/common/http.contract';
import { ApiError } from '../../lib/api-client';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';
import { RESUMABLE_FROM_BYTES, uploadResumably } from './resumable-upload';

/** The three-step upload of SPEC 7. Each step throws ApiError; callers decide what to show. */

/** The media type sent with the file; some systems give none for a known audio file. */
export function uploadMediaType(file: File): string {
  return file.type || 'application/octet-stream';
}

/** Step 1: where to PUT the file, and the storage key to report afterwards. */
export async function requestUploadUrl(file: File): Promise<{ url: string; key: string }> {
  const answer = await callEndpoint(uploadEndpoints.presignedUrl, {
    query: { fileName: file.name, contentType: uploadMediaType(file) },
    // Read leniently so an answer without a URL gets the spec's own message, not a generic one.
    schema: presignedUrlResponse.partial(),
    fallbackMessage: translate('uploadFailed'),
  });
  if (!answer.url || !answer.key) {
    const message = translate('uploadMissingUrl');
    throw new ApiError(200, message, message);
  }
  return { url: answer.url, key: answer.key };
}

function serverMessageOf(responseText: string): string | null {
  try {
    const parsed = errorResponse.safeParse(JSON.parse(responseText));
    return parsed.success && parsed.data.message.trim() ? parsed.data.message : null;
  } catch {
    return null; // not JSON (an S3 XML error, say)
  }
}

/**
 * Step 2: the file's bytes to the storage URL (relative for Encore's own storage, absolute for
 * S3), with progress as a fraction 0..1. XMLHttpRequest, because fetch cannot report upload
 * progress. No Authorization header: the signed URL is the permission.
 */
export function putFile(url: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  const fallback = translate('uploadFailed');
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader('Content-Type', uploadMediaType(file));
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      const serverMessage = serverMessageOf(request.responseText);
      reject(new ApiError(request.status, serverMessage ?? fallback, serverMessage));
    });
    request.addEventListener('error', () => reject(new ApiError(0, fallback, null)));
    request.addEventListener('abort', () => reject(new ApiError(0, fallback, null)));
    request.send(file);
  });
}

/** Step 3: tells the server the file is in place; it reads the tags and answers the new song. */
export function completeUpload(file: File, key: string): Promise<Song> {
  const body: UploadCompleteBody = { fileName: file.name, fileType: file.type, size: file.size, s3key: key, folderId: 0 };
  return callEndpoint(uploadEndpoints.complete, { body, fallbackMessage: translate('uploadFailed') });
}

/**
 * One file: SPEC 7's three steps, or for a file larger than one chunk a resumable upload (tus)
 * whose last request also adds the song. Progress stays at most 95 until the server has the
 * song (DECISIONS).
 */
export async function uploadFile(file: File, onProgress: (percent: number) => void): Promise<Song> {
  onProgress(0);
  const toPercent = (fraction: number) => onProgress(Math.min(95, Math.round(fraction * 95)));
  if (file.size > RESUMABLE_FROM_BYTES) {
    const songId = await uploadResumably(file, uploadMediaType(file), toPercent);
    const created = await callEndpoint(libraryEndpoints.get, { params: { id: songId }, fallbackMessage: translate('uploadFailed') });
    onProgress(100);
    return created;
  }
  const { url, key } = await requestUploadUrl(file);
  await putFile(url, file, toPercent);
  const created = await completeUpload(file, key);
  onProgress(100);
  return created;
}
