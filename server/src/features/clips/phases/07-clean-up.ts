import { rm } from 'node:fs/promises';
import type { RenderContext } from './render-context.js';

/** Phase 7: the work folder goes, whatever happened (a partial output file included). */
export async function cleanUp(context: Pick<RenderContext, 'workDir'>): Promise<void> {
  await rm(context.workDir, { recursive: true, force: true });
}
