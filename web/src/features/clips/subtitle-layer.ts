import type JASSUB from 'jassub';
import { clipFallbackFonts } from './clip-font-files';

/** An ASS document and what libass needs to draw it as the renderer does. */
export interface SubtitleDocument {
  ass: string;
  /** Font file URLs to load before drawing (the faces the document uses). */
  fonts: readonly string[];
  /** The output frame (the document's PlayResX/Y): libass scales it to the canvas. */
  width: number;
  height: number;
}

/**
 * libass in WebAssembly (jassub) drawing a clip's subtitle document onto a transparent canvas
 * laid over the preview's pictures: the same library, document and font files as the
 * renderer's ffmpeg `subtitles` filter. jassub (its worker and WASM, ~2 MB) loads with the
 * first layer, never with the rest of the app. Draws run one at a time; a draw asked for while
 * one runs replaces any other waiting, so a playing clock never queues frames.
 */
export class SubtitleLayer {
  private document: SubtitleDocument;
  private readonly fontsLoaded: Set<string>;
  /** Document and font changes, applied in order. */
  private updates: Promise<void> = Promise.resolve();
  private pending: { time: number; repaint: boolean } | null = null;
  private drawing = false;
  private closed = false;

  private constructor(
    private readonly instance: JASSUB,
    document: SubtitleDocument,
    private readonly onDrawn: (time: number) => void,
  ) {
    this.document = document;
    this.fontsLoaded = new Set(document.fonts);
  }

  /** Starts libass on `canvas` (which it takes over: a canvas serves one layer) with the document's fonts loaded. */
  static async open(canvas: HTMLCanvasElement, document: SubtitleDocument, onDrawn: (time: number) => void): Promise<SubtitleLayer> {
    const { default: Jassub } = await import('jassub');
    const instance = new Jassub({
      canvas,
      subContent: document.ass,
      fonts: [...document.fonts],
      // Liberation Sans is libass's default face here, as in the renderer; no local or remote font lookups.
      availableFonts: clipFallbackFonts(),
      defaultFont: 'liberation sans',
      queryFonts: false,
    });
    try {
      await instance.ready;
    } catch (error) {
      void instance.destroy();
      throw error;
    }
    return new SubtitleLayer(instance, document, onDrawn);
  }

  /** Replaces the document (after loading any new font files) and redraws the last time asked for. */
  show(document: SubtitleDocument): Promise<void> {
    this.updates = this.updates.then(async () => {
      if (this.closed) return;
      const fonts = document.fonts.filter((url) => !this.fontsLoaded.has(url));
      if (fonts.length > 0) {
        await this.instance.renderer.addFonts(fonts);
        fonts.forEach((url) => this.fontsLoaded.add(url));
      }
      if (document.ass !== this.document.ass) await this.instance.renderer.setTrack(document.ass);
      this.document = document;
      const last = this.instance._lastDemandTime?.mediaTime;
      if (last !== undefined) this.draw(last, true);
    });
    return this.updates;
  }

  /** Draws the document at `time` seconds into the clip. */
  draw(time: number, repaint = false): void {
    this.pending = { time, repaint: repaint || (this.pending?.repaint ?? false) };
    if (!this.drawing) void this.drain();
  }

  private async drain(): Promise<void> {
    this.drawing = true;
    try {
      while (this.pending && !this.closed) {
        const { time, repaint } = this.pending;
        this.pending = null;
        const { width, height } = this.document;
        await this.instance.manualRender({ mediaTime: time, width, height, expectedDisplayTime: performance.now() }, repaint);
        if (!this.closed) this.onDrawn(time);
      }
    } catch (error) {
      // The worker is gone (out of memory, say): the layer stays as it was; the next time asked for tries again.
      console.warn('The text preview could not draw:', error);
    } finally {
      this.drawing = false;
    }
  }

  close(): void {
    this.closed = true;
    void this.instance.destroy();
  }
}
