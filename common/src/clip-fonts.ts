import type { FontFamily } from './text-style.contract.js';

/**
 * The fonts Encore ships for clips (server/assets/fonts, all SIL OFL 1.1): one family for each
 * of SPEC 3's generic families, so libass draws the same text on every machine, in the
 * renderer (ffmpeg `subtitles=…:fontsdir=`) and in the browser preview (libass in WASM, fed
 * the same files from `clipsEndpoints.font`, GET /api/clips/fonts/{file}).
 */
export const CLIP_FONT_FACES: Record<FontFamily, string> = {
  'sans-serif': 'Liberation Sans',
  serif: 'Liberation Serif',
  monospace: 'Liberation Mono',
  cursive: 'Dancing Script',
  fantasy: 'Lobster Two',
};

/** The families that cover Hebrew (and the rest of what Liberation covers). */
const COVERS_RTL: ReadonlySet<string> = new Set(['Liberation Sans', 'Liberation Serif', 'Liberation Mono']);

/** Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms. */
const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

export function hasRtlText(text: string): boolean {
  return RTL_SCRIPT.test(text);
}

/** The face drawing `text` in `family`: the script fonts have no Hebrew, so such lines use the sans face. */
export function clipFontFace(family: FontFamily, text: string): string {
  const face = CLIP_FONT_FACES[family];
  return hasRtlText(text) && !COVERS_RTL.has(face) ? CLIP_FONT_FACES['sans-serif'] : face;
}

/** Every shipped font file (the preview loads them all into libass). */
export const CLIP_FONT_FILES = [
  'LiberationSans-Regular.ttf',
  'LiberationSans-Bold.ttf',
  'LiberationSans-Italic.ttf',
  'LiberationSans-BoldItalic.ttf',
  'LiberationSerif-Regular.ttf',
  'LiberationSerif-Bold.ttf',
  'LiberationSerif-Italic.ttf',
  'LiberationSerif-BoldItalic.ttf',
  'LiberationMono-Regular.ttf',
  'LiberationMono-Bold.ttf',
  'LiberationMono-Italic.ttf',
  'LiberationMono-BoldItalic.ttf',
  'DancingScript-Regular.otf',
  'DancingScript-Bold.otf',
  'LobsterTwo-Regular.otf',
] as const;

export type ClipFontFile = (typeof CLIP_FONT_FILES)[number];
