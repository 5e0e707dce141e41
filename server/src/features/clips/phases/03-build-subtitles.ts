import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClipSubtitles } from '@encore/common/clip-subtitles';
import { required, type RenderContext } from './render-context.js';

/** The fonts Encore ships (server/assets/fonts), handed to libass as `fontsdir`. */
export const CLIP_FONTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../assets/fonts');

/** Phase 3: the words as an ASS document (the same pure function the browser preview uses). */
export async function buildSubtitles(context: RenderContext): Promise<void> {
  await context.progress(5, 'Laying out the words');
  if (context.words.length === 0) return;
  const start = required(context.start, 'start');
  const ass = buildClipSubtitles({
    words: context.words,
    karaoke: context.karaoke,
    style: context.settings,
    width: context.width,
    height: context.height,
    start,
    end: start + required(context.duration, 'duration'),
    ...(context.textColors ? { textColors: context.textColors } : {}),
  });
  const file = path.join(context.workDir, 'words.ass');
  await writeFile(file, ass, 'utf8');
  context.subtitleFile = file;
}
