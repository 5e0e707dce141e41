import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CLIP_FONT_FILES } from '@encore/common/clip-fonts';
import { CLIP_FORM_FIELDS, clipsEndpoints } from '@encore/common/clips.contract';
import { errorResponse } from '@encore/common/http.contract';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../platform/errors/app-errors.js';
import { makeOwnedTempDir } from '../../platform/fs/owned-temp-dir.js';
import { route } from '../../platform/http/endpoint-route.js';
import { multipartReadError } from '../../platform/http/multipart-errors.js';
import { bodyIsGone, closeAfterAnswer, UPLOAD_INTERRUPTED } from '../../platform/http/request-deadlines.js';
import type { UploadedMedia } from './clip-media.check.js';
import type { ClipsService } from './clips.service.js';
import { CLIP_FONTS_DIR } from './phases/03-build-subtitles.js';

export interface ClipRouteLimits {
  maxImages: number;
  maxFileBytes: number;
  /** The time the whole multipart body may take to arrive. */
  bodyTimeoutMs: number;
  /** A body that sends nothing for this long is cut off (UPLOAD_STALL_SECONDS). */
  stallMs: number;
}

const errors = {
  400: errorResponse,
  401: errorResponse,
  404: errorResponse,
  408: errorResponse,
  413: errorResponse,
  415: errorResponse,
  422: errorResponse,
  429: errorResponse,
};
const common = { security: [{ bearer: [] }], responses: errors };

/** Song2Clip under `/clips` (DECISIONS): create-clip, clip-status, the owner's clips, and the fonts libass draws with. */
export function clipsRoutes(clips: ClipsService, limits: ClipRouteLimits): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: limits.maxFileBytes, files: limits.maxImages, fields: 8, fieldSize: 4 * 1024 * 1024, parts: limits.maxImages + 8, headerPairs: 200 },
    });

    route(
      app,
      clipsEndpoints.create,
      { ...common, onRequest: app.requireUser, config: { bodyTimeoutMs: limits.bodyTimeoutMs, bodyStallMs: limits.stallMs } },
      async (request, reply) => {
        if (!request.isMultipart()) throw new ValidationError('Send the clip as multipart/form-data (settings, songUrl, mediaFiles).');
        const ownerId = request.currentUser().id;
        let leave: (() => void) | undefined;
        try {
          // Counted before a byte is read: a user's open uploads each hold a connection and a spool.
          leave = clips.admitUpload(ownerId);
          // Renders at the user's limit (issue 29): refused before the media are read.
          await clips.assertCanRender(ownerId);
          // Names this process: should it be killed mid-upload, any later process removes the spool.
          const spool = await makeOwnedTempDir('clip-upload');
          try {
            // Reset while the checks above were awaited: the parser would wait for ever on it.
            if (bodyIsGone(request.raw)) throw new ValidationError(UPLOAD_INTERRUPTED);
            const fields: Record<string, string> = {};
            const media: UploadedMedia[] = [];
            try {
              for await (const part of request.parts()) {
                if (part.type === 'field') {
                  if (typeof part.value === 'string') fields[part.fieldname] = part.value;
                  continue;
                }
                if (part.fieldname !== CLIP_FORM_FIELDS.mediaFiles) {
                  part.file.resume();
                  continue;
                }
                const file = path.join(spool, `media-${media.length}`);
                await pipeline(part.file, createWriteStream(file));
                media.push({ file, name: part.filename || `file ${media.length + 1}`, size: part.file.bytesRead });
              }
            } catch (error) {
              throw multipartError(error, limits);
            }
            const { taskId } = await clips.create(ownerId, {
              settings: fields[CLIP_FORM_FIELDS.settings],
              songUrl: fields[CLIP_FORM_FIELDS.songUrl],
              media,
            });
            return reply.status(202).send({ task_id: taskId });
          } finally {
            await rm(spool, { recursive: true, force: true });
          }
        } catch (error) {
          // Cut off for stalling: the 408 is out already.
          if (reply.sent) return reply;
          closeAfterAnswer(request, reply);
          throw error;
        } finally {
          leave?.();
        }
      },
    );

    route(app, clipsEndpoints.status, { ...common, onRequest: app.requireUser }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return clips.status(request.params.task_id, request.currentUser().id);
    });

    route(app, clipsEndpoints.list, { ...common, onRequest: app.requireUser }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { clips: await clips.list(request.currentUser().id) };
    });

    route(app, clipsEndpoints.delete, { ...common, onRequest: app.requireUser }, async (request, reply) => {
      await clips.delete(request.params.id, request.currentUser().id);
      return reply.status(204).send(null);
    });

    route(app, clipsEndpoints.font, {}, async (request, reply) => {
      const file = request.params.file;
      if (!CLIP_FONT_FILES.includes(file)) throw new NotFoundError('No such font');
      reply.header('cache-control', 'public, max-age=604800').type(file.endsWith('.otf') ? 'font/otf' : 'font/ttf');
      return reply.send(createReadStream(path.join(CLIP_FONTS_DIR, file)));
    });
  };
}

function multipartError(error: unknown, limits: ClipRouteLimits): unknown {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'FST_FILES_LIMIT') return new ValidationError(`mediaFiles: at most ${limits.maxImages} pictures`);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new PayloadTooLargeError(`mediaFiles: a file is larger than ${Math.round(limits.maxFileBytes / 1024 / 1024)} MB`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new ValidationError('Too many form fields.');
  return multipartReadError(error);
}
