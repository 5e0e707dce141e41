import { clipFrameSize, type ClipSettings } from '@encore/common/clips.contract';
import { elasticEase, pictureAt } from './preview-frame';

/**
 * The preview's backdrop: the pictures (with the transition) or the video. The text is not
 * drawn here but by libass over it (subtitle-layer.ts). The canvas is drawn at the 480p size of
 * the chosen aspect ratio and scaled by CSS.
 */
export function previewCanvasSize(settings: Pick<ClipSettings, 'aspectRatio'>) {
  return clipFrameSize('low', settings.aspectRatio);
}

export type Drawable = HTMLImageElement | HTMLVideoElement;

export interface PreviewScene {
  settings: Pick<ClipSettings, 'transitions'>;
  pictures: readonly Drawable[];
  video: HTMLVideoElement | null;
  /** Song seconds. */
  time: number;
  /** The clip's span in song seconds. */
  start: number;
  end: number;
}

function drawableSize(source: Drawable) {
  return source instanceof HTMLVideoElement ? { w: source.videoWidth, h: source.videoHeight } : { w: source.naturalWidth, h: source.naturalHeight };
}

/** Scale to cover the frame (the renderer crops the same way), centred. */
function drawCover(ctx: CanvasRenderingContext2D, source: Drawable, width: number, height: number, dx = 0) {
  const { w, h } = drawableSize(source);
  if (!w || !h) return;
  const scale = Math.max(width / w, height / h);
  ctx.drawImage(source, dx + (width - w * scale) / 2, (height - h * scale) / 2, w * scale, h * scale);
}

/** One frame of the backdrop at the scene's time. */
export function drawBackdrop(ctx: CanvasRenderingContext2D, scene: PreviewScene) {
  const { width, height } = ctx.canvas;
  ctx.fillStyle = '#0b0b12';
  ctx.fillRect(0, 0, width, height);
  if (scene.video) {
    drawCover(ctx, scene.video, width, height);
    return;
  }
  const { pictures, settings } = scene;
  if (pictures.length === 0) return;
  const frame = pictureAt(scene.time - scene.start, pictures.length, scene.end - scene.start, settings.transitions);
  const current = pictures[frame.index]!;
  const next = frame.next === null ? undefined : pictures[frame.next];
  if (!next) {
    drawCover(ctx, current, width, height);
    return;
  }
  if (settings.transitions === 'elastic') {
    const shift = elasticEase(frame.mix) * width;
    drawCover(ctx, current, width, height, -shift);
    drawCover(ctx, next, width, height, width - shift);
    return;
  }
  drawCover(ctx, current, width, height);
  ctx.globalAlpha = frame.mix;
  drawCover(ctx, next, width, height);
  ctx.globalAlpha = 1;
}
