import { clipFrameSize, type ClipSettings } from '@encore/common/clips.contract';
import { clipFontFace } from '@encore/common/clip-fonts';
import { DEFAULT_HIGHLIGHT_COLOR, SUBTITLE_REFERENCE_SHORT_SIDE } from '@encore/common/clip-subtitles';
import { animationAt, elasticEase, pictureAt, textAt, type PreviewLine } from './preview-frame';

/** The canvas is drawn at the 480p size of the chosen aspect ratio and scaled by CSS. */
export function previewCanvasSize(settings: Pick<ClipSettings, 'aspectRatio'>) {
  return clipFrameSize('low', settings.aspectRatio);
}

const MARGIN = 0.05;

export type Drawable = HTMLImageElement | HTMLVideoElement;

export interface PreviewScene {
  settings: ClipSettings;
  lines: readonly PreviewLine[];
  pictures: readonly Drawable[];
  video: HTMLVideoElement | null;
  /** Song seconds. */
  time: number;
  /** The clip's span in song seconds. */
  start: number;
  end: number;
  /** Shown when the song has no timed words, so the style can still be seen. */
  sampleText: string;
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

function drawBackdrop(ctx: CanvasRenderingContext2D, scene: PreviewScene, width: number, height: number) {
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

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.min(r, h / 2, w / 2));
  ctx.fill();
}

/** One frame of the live preview: the picture(s) or video, then the line of words styled and animated as the settings say. */
export function drawPreview(ctx: CanvasRenderingContext2D, scene: PreviewScene) {
  const { width, height } = ctx.canvas;
  const s = scene.settings;
  drawBackdrop(ctx, scene, width, height);

  const frame = textAt(scene.lines, scene.time);
  const words = frame ? frame.line.words.map((word) => word.text) : scene.sampleText ? [scene.sampleText] : [];
  if (words.length === 0) return;
  const text = words.join(' ');
  const scale = Math.min(width, height) / SUBTITLE_REFERENCE_SHORT_SIDE;
  const fontPx = s.fontSize * scale;
  const anim = frame ? animationAt(s.animation, frame.age) : { alpha: 1, scale: 1, offsetY: 0 };

  ctx.save();
  ctx.font = `${s.textStyles.italic ? 'italic ' : ''}${s.textStyles.bold ? 'bold ' : ''}${fontPx}px "${clipFontFace(s.fontFamily, text)}", ${s.fontFamily}`;
  ctx.letterSpacing = `${s.letterSpacing * scale}px`;
  ctx.textBaseline = 'middle';
  ctx.direction = /[\u0590-\u08ff]/u.test(text) ? 'rtl' : 'ltr';
  const spaceWidth = ctx.measureText(' ').width;
  const widths = words.map((word) => ctx.measureText(word).width);
  const textWidth = widths.reduce((sum, w) => sum + w, 0) + spaceWidth * (words.length - 1);
  const lineHeight = fontPx * s.lineHeight;
  const pad = s.padding * scale;
  const margin = MARGIN * Math.min(width, height);

  const boxW = textWidth + pad * 2;
  const boxH = lineHeight + pad * 2;
  const left = s.textAlign === 'left' ? margin : s.textAlign === 'right' ? width - margin - boxW : (width - boxW) / 2;
  const top = s.textPosition === 'top' ? margin : s.textPosition === 'bottom' ? height - margin - boxH : (height - boxH) / 2;
  const centerX = left + boxW / 2;
  const centerY = top + boxH / 2 + anim.offsetY * fontPx;

  ctx.globalAlpha = anim.alpha;
  ctx.translate(centerX, centerY);
  ctx.scale(anim.scale, anim.scale);
  if (s.showBackground) {
    ctx.fillStyle = `rgba(0,0,0,${s.backgroundOpacity / 100})`;
    roundedRect(ctx, -boxW / 2, -boxH / 2, boxW, boxH, s.borderRadius * scale);
  }
  if (s.textShadow) {
    ctx.shadowColor = 'rgba(0,0,0,0.8)';
    ctx.shadowBlur = 4 * scale;
    ctx.shadowOffsetX = 2 * scale;
    ctx.shadowOffsetY = 2 * scale;
  }
  // Words left to right in reading order (mirrored for right-to-left text), each in its colour.
  const rtl = ctx.direction === 'rtl';
  ctx.textAlign = 'left';
  let x = rtl ? textWidth / 2 : -textWidth / 2;
  words.forEach((word, index) => {
    const w = widths[index]!;
    const wordX = rtl ? x - w : x;
    ctx.fillStyle = frame && frame.current === index ? DEFAULT_HIGHLIGHT_COLOR : s.textColor;
    ctx.fillText(word, wordX, 0);
    if (s.textStyles.underline) ctx.fillRect(wordX, fontPx * 0.45, w, Math.max(1, fontPx / 14));
    x = rtl ? x - w - spaceWidth : x + w + spaceWidth;
  });
  ctx.restore();
}
