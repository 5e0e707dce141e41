import type { ClipsRepository } from '../clips.repository.js';
import { fetchInputs } from './01-fetch-inputs.js';
import { normaliseMedia } from './02-normalise-media.js';
import { buildSubtitles } from './03-build-subtitles.js';
import { encode } from './05-encode.js';
import { store } from './06-store.js';
import { cleanUp } from './07-clean-up.js';
import type { RenderContext } from './render-context.js';

/** The phases in order; the work folder is removed whatever happens. */
export async function runRender(context: RenderContext, repository: ClipsRepository): Promise<{ videoKey: string; sizeBytes: number }> {
  try {
    await fetchInputs(context);
    await normaliseMedia(context);
    await buildSubtitles(context);
    await encode(context);
    return await store(context, repository);
  } finally {
    await cleanUp(context);
  }
}
