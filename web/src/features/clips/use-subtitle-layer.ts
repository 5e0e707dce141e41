import { useEffect, useRef, useState } from 'react';
import { SubtitleLayer, type SubtitleDocument } from './subtitle-layer';

export type SubtitleLayerState = 'loading' | 'ready' | 'unavailable';

/** What libass in the browser needs: WebAssembly, module workers and a canvas a worker can draw on. */
function canDrawSubtitles(): boolean {
  return typeof WebAssembly === 'object' && typeof Worker === 'function' && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function';
}

/**
 * The preview's text layer: a canvas of its own inside `host` (made here, since libass takes a
 * canvas over for good and React may mount twice), drawn by libass from `document` at `time`
 * (clip seconds). The host's `data-text-time` says which time was last drawn, for tests that
 * compare the preview with a render.
 */
export function useSubtitleLayer(document: SubtitleDocument, time: number) {
  const host = useRef<HTMLDivElement>(null);
  const layer = useRef<SubtitleLayer | null>(null);
  const latest = useRef({ document, time });
  const [state, setState] = useState<SubtitleLayerState>(() => (canDrawSubtitles() ? 'loading' : 'unavailable'));

  useEffect(() => {
    latest.current = { document, time };
  }, [document, time]);

  useEffect(() => {
    const element = host.current;
    if (!element || !canDrawSubtitles()) return;
    const canvas = element.ownerDocument.createElement('canvas');
    canvas.className = 'pointer-events-none absolute inset-0 size-full';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset['testid'] = 'clip-preview-text';
    element.append(canvas);
    let live = true;
    let opened: SubtitleLayer | null = null;
    const drawn = (at: number) => {
      if (live) element.dataset['textTime'] = String(at);
    };
    SubtitleLayer.open(canvas, latest.current.document, drawn).then(
      (ready) => {
        if (!live) return ready.close();
        opened = ready;
        layer.current = ready;
        setState('ready');
      },
      (error: unknown) => {
        canvas.remove();
        if (!live) return;
        console.warn('The text preview (libass) could not start:', error);
        setState('unavailable');
      },
    );
    return () => {
      live = false;
      layer.current = null;
      opened?.close();
      canvas.remove();
      delete element.dataset['textTime'];
    };
  }, []);

  useEffect(() => {
    if (state === 'ready') void layer.current?.show(document);
  }, [state, document]);

  useEffect(() => {
    if (state === 'ready') layer.current?.draw(time);
  }, [state, time]);

  return { host, state };
}
