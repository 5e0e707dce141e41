import { CLIP_FONT_FACES, CLIP_FONT_FILES, clipFontFace } from '@encore/common/clip-fonts';
import { clipsEndpoints } from '@encore/common/clips.contract';
import type { TextStyle } from '@encore/common/text-style.contract';
import { endpointUrl } from '../../lib/endpoint-client';

/**
 * Which of the shipped font files the preview's libass needs for a clip's text. The renderer
 * hands libass the whole folder (`fontsdir`), so it picks the file of the face in the style's
 * weight and slant; the browser fetches just that file (a Liberation face is ~400 KB) and so
 * draws with the same one.
 */

const BY_FACE = new Map<string, { file: string; bold: boolean; italic: boolean }[]>();
for (const face of new Set(Object.values(CLIP_FONT_FACES))) {
  const stem = face.replace(/\s+/g, '');
  BY_FACE.set(
    face,
    CLIP_FONT_FILES.filter((file) => file.startsWith(`${stem}-`)).map((file) => ({ file, bold: /Bold/.test(file), italic: /Italic/.test(file) })),
  );
}

export function clipFontUrl(file: string): string {
  return endpointUrl(clipsEndpoints.font, { params: { file } });
}

/** The face's file libass would choose: the exact weight and slant, else the same weight (libass slants it), else the regular. */
export function clipFontFile(face: string, bold: boolean, italic: boolean): string | undefined {
  const files = BY_FACE.get(face) ?? [];
  const pick =
    files.find((f) => f.bold === bold && f.italic === italic) ??
    files.find((f) => f.bold === bold && !f.italic) ??
    files.find((f) => !f.bold && !f.italic) ??
    files[0];
  return pick?.file;
}

/** The URLs of the files drawing `texts` in `style`: the family's face, and the sans face for right-to-left lines the family has no glyphs for. */
export function clipFontUrls(style: Pick<TextStyle, 'fontFamily' | 'textStyles'>, texts: readonly string[]): string[] {
  const faces = new Set([CLIP_FONT_FACES[style.fontFamily], ...texts.map((text) => clipFontFace(style.fontFamily, text))]);
  const files = [...faces].map((face) => clipFontFile(face, style.textStyles.bold, style.textStyles.italic)).filter((file) => file !== undefined);
  return files.map(clipFontUrl);
}

/** Every face by name → its regular file: what libass may ask for beyond the preloaded files (a fallback), fetched only if it does. */
export function clipFallbackFonts(): Record<string, string> {
  const fonts: Record<string, string> = {};
  for (const face of BY_FACE.keys()) {
    const file = clipFontFile(face, false, false);
    if (file) fonts[face.toLowerCase()] = clipFontUrl(file);
  }
  return fonts;
}
