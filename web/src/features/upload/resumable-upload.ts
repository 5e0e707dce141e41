import { resumableUpload } from '@encore/common/library.contract';
import type { DetailedError, HttpRequest } from 'tus-js-client';
import { API_BASE, ApiError } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';
import { readStoredToken } from '../../lib/session-storage';

/**
 * Files larger than one chunk go through tus (issue 27): if the connection drops, the upload
 * asks the server how much arrived and sends the rest, instead of starting over. Smaller
 * files fit one request, where SPEC 7's three steps are just as good.
 */
export const RESUMABLE_FROM_BYTES = resumableUpload.chunkBytes;

/**
 * Waits between attempts after a failure (ms). The counter starts again whenever an attempt
 * got bytes through, so a flaky connection that keeps making progress never runs out.
 */
export const RESUME_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000];

/** `{message}` of an answer body, if it is one. */
function serverMessageOf(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' && parsed.message.trim() ? parsed.message : null;
  } catch {
    return null;
  }
}

function asApiError(error: Error | DetailedError): ApiError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const serverMessage = serverMessageOf(response?.getBody());
  return new ApiError(response?.getStatus() ?? 0, serverMessage ?? translate('uploadFailed'), serverMessage, { cause: error });
}

/**
 * Retried: no answer at all (the connection dropped, or the browser is offline for now), the
 * server's own trouble, a lock still held by the cut request, too many at once. Not retried:
 * a refusal (413 too large, 415 not audio, 404 gone, 401 signed out).
 */
function worthRetrying(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

/**
 * Sends one file through tus, resuming an earlier try of the same file when the browser still
 * knows it (a reloaded page). Reports progress as a fraction 0..1 and resolves with the id of
 * the song the server made of it.
 */
export async function uploadResumably(file: File, mediaType: string, onProgress: (fraction: number) => void): Promise<number> {
  // Loaded with the first large file: most uploads never need it (about 50 kB).
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      // Absolute, so the Location the server answers (a path) resolves against this origin.
      endpoint: new URL(`${API_BASE}${resumableUpload.path}`, window.location.origin).toString(),
      chunkSize: resumableUpload.chunkBytes,
      retryDelays: RESUME_DELAYS_MS,
      metadata: { filename: file.name, filetype: mediaType },
      removeFingerprintOnSuccess: true,
      // The token is read at each request, so a session renewed meanwhile is the one sent.
      onBeforeRequest: (request: HttpRequest) => {
        const token = readStoredToken();
        if (token) request.setHeader('Authorization', `Bearer ${token}`);
      },
      onShouldRetry: (error) => worthRetrying(error),
      onProgress: (sent, total) => {
        if (total > 0) onProgress(sent / total);
      },
      onSuccess: ({ lastResponse }) => {
        const songId = Number(lastResponse.getHeader(resumableUpload.songIdHeader));
        if (Number.isSafeInteger(songId) && songId > 0) resolve(songId);
        else reject(new ApiError(lastResponse.getStatus(), translate('uploadFailed'), null));
      },
      onError: (error) => reject(asApiError(error)),
    });
    void upload
      .findPreviousUploads()
      .catch(() => [])
      .then((previous) => {
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (latest) upload.resumeFromPreviousUpload(latest);
        upload.start();
      });
  });
}
