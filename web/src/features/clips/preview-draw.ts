import { CLIP_TRANSITIONS, pictureAt } from '@encore/common/clip-timeline';
import { clipFrameSize, type ClipSettings } from '@encore/common/clips.contract';
import { softWipeAlpha } from './preview-frame';

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
  /** When each picture starts, in clip seconds, plus the clip's end (common/clip-timeline's pictureBoundaries, as the render takes them). */
  boundaries: readonly number[];
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
  const frame = pictureAt(scene.time - scene.start, scene.boundaries, settings.transitions);
  const current = pictures[frame.index] ?? pictures[0]!;
  const next = frame.next === null ? undefined : pictures[frame.next];
  if (!next || settings.transitions === 'none') {
    drawCover(ctx, current, width, height);
    return;
  }
  const look = CLIP_TRANSITIONS[settings.transitions].look;
  if (look === 'push') {
    const shift = frame.mix * width;
    drawCover(ctx, current, width, height, -shift);
    drawCover(ctx, next, width, height, width - shift);
    return;
  }
  drawCover(ctx, current, width, height);
  if (look === 'fade') {
    ctx.globalAlpha = frame.mix;
    drawCover(ctx, next, width, height);
    ctx.globalAlpha = 1;
    return;
  }
  drawSoftWipe(ctx, next, frame.mix);
}

/** The incoming picture through the soft wipe's edge: drawn aside, masked by a gradient of the edge's alpha, then laid over. */
function drawSoftWipe(ctx: CanvasRenderingContext2D, next: Drawable, mix: number) {
  const { width, height } = ctx.canvas;
  const layer = ctx.canvas.ownerDocument.createElement('canvas');
  layer.width = width;
  layer.height = height;
  const layerCtx = layer.getContext('2d');
  if (!layerCtx) return;
  drawCover(layerCtx, next, width, height);
  const mask = layerCtx.createLinearGradient(0, 0, width, 0);
  const STOPS = 16;
  for (let i = 0; i <= STOPS; i++) mask.addColorStop(i / STOPS, `rgba(0,0,0,${softWipeAlpha(i / STOPS, mix)})`);
  layerCtx.globalCompositeOperation = 'destination-in';
  layerCtx.fillStyle = mask;
  layerCtx.fillRect(0, 0, width, height);
  ctx.drawImage(layer, 0, 0);
}
