import { CLIP_FONT_FACES, CLIP_FONT_FILES, CLIP_FONTS_PATH } from '@encore/common/clip-fonts';
import type { FontFamily } from '@encore/common/text-style.contract';

/**
 * The fonts the renderer draws with, loaded into the page from `GET /api/clips/fonts/{file}`
 * so the preview uses the same faces. A face is loaded once, when its family is first chosen.
 */
const loading = new Map<string, Promise<void>>();

/** The files of a face: "Liberation Sans" → LiberationSans-*.ttf, with weight and style from the file name. */
function filesOf(face: string) {
  const stem = face.replace(/\s+/g, '');
  return CLIP_FONT_FILES.filter((file) => file.startsWith(`${stem}-`)).map((file) => ({
    file,
    weight: /Bold/.test(file) ? 'bold' : 'normal',
    style: /Italic/.test(file) ? 'italic' : 'normal',
  }));
}

export function loadClipFont(family: FontFamily): Promise<void> {
  const face = CLIP_FONT_FACES[family];
  let done = loading.get(face);
  if (!done) {
    done = Promise.allSettled(
      filesOf(face).map(async ({ file, weight, style }) => {
        const font = new FontFace(face, `url(${CLIP_FONTS_PATH}/${file})`, { weight, style });
        document.fonts.add(await font.load());
      }),
    ).then(() => undefined);
    loading.set(face, done);
  }
  return done;
}
