import { CLIP_LIMITS } from '@encore/common/clips.contract';
import { clipUploadDeadlineMs } from '../../config.js';
import { defineModule } from '../../modules/module.js';
import { renderLimit } from '../../platform/limits/user-limits.js';
import { songCataloguePort } from '../library/library.port.js';
import { songLyricsPort } from '../lyrics/lyrics.port.js';
import { renderClipJob } from './clips.jobs.kind.js';
import { clipsJobs } from './clips.jobs.js';
import { ClipsRepository } from './clips.repository.js';
import { clipsRoutes } from './clips.routes.js';
import { clips as clipsTable } from './clips.schema.js';
import { ClipsService } from './clips.service.js';

export const clipsModule = defineModule({
  name: 'clips',
  summary: 'Song2Clip: a song plus pictures or a video rendered into a lyric music clip by ffmpeg.',
  requires: [songCataloguePort, songLyricsPort],
  provides: [],
  tables: [clipsTable],
  jobs: [renderClipJob],
  settings: [
    'CLIP_MAX_IMAGES',
    'CLIP_MAX_IMAGE_MB',
    'CLIP_MAX_VIDEO_MB',
    'CLIP_MAX_VIDEO_MINUTES',
    'CLIP_RENDERS_PER_PROCESS',
    'FFMPEG_PATH',
    'USER_MAX_RENDERS',
  ],
  tags: ['clips'],
  setup({ platform, logger, publicUrl, use }) {
    const { config } = platform;
    const clips = new ClipsService({
      repository: new ClipsRepository(platform.database.db),
      library: use(songCataloguePort),
      storage: platform.storage,
      tasks: platform.tasks,
      ffmpeg: platform.ffmpeg,
      logger,
      uploadsPerUser: config.uploads.perUser,
      renderLimit: renderLimit(config.limits),
      limits: {
        maxImages: config.clips.maxImages,
        maxImageBytes: config.clips.maxImageBytes,
        maxVideoBytes: config.clips.maxVideoBytes,
        maxVideoSeconds: config.clips.maxVideoSeconds,
        maxImagePixels: CLIP_LIMITS.maxImagePixels,
        maxImageAspect: CLIP_LIMITS.maxImageAspect,
      },
      publicUrl,
      // The song's lyrics, drawn when the clip brings no words of its own.
      lyrics: use(songLyricsPort),
    });
    return {
      routes: clipsRoutes(clips, {
        maxImages: config.clips.maxImages,
        maxFileBytes: Math.max(config.clips.maxImageBytes, config.clips.maxVideoBytes),
        bodyTimeoutMs: clipUploadDeadlineMs(config),
        stallMs: config.uploads.stallMs,
      }),
      jobs: clipsJobs(clips, { concurrency: config.clips.rendersPerProcess }),
      maintenance: [{ name: 'clip files no clip uses', run: () => clips.sweepOrphanedFiles() }],
      internals: { clips },
    };
  },
});
