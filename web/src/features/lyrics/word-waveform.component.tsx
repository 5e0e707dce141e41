import { useEffect, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type { Region } from 'wavesurfer.js/dist/plugins/regions.js';
import type RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { setMediaSource } from './media-control';
import type { EditorWord } from './word-editor.state';

type Regions = ReturnType<typeof RegionsPlugin.create>;

interface WordWaveformProps {
  /** The editor's audio element: the waveform plays and seeks it, so the preview follows. */
  media: HTMLAudioElement;
  /** The song's signed play URL, fetched and decoded for the waveform. */
  url: string;
  words: readonly EditorWord[];
  selected: ReadonlySet<string>;
  /** A word dragged or resized on the waveform. */
  onRetime: (key: string, start: number, end: number) => void;
  onSelect: (key: string) => void;
}

const WORD_COLOR = 'rgba(168, 85, 247, 0.28)';
const SELECTED_COLOR = 'rgba(232, 121, 249, 0.5)';
/** Enough room per second that a short word is wide enough to grab. */
const PIXELS_PER_SECOND = 90;

function regionLabel(text: string): HTMLElement {
  const label = document.createElement('span');
  label.textContent = text;
  label.dir = 'auto';
  label.className = 'word-region-label';
  label.style.cssText =
    'display:block;padding:2px 4px;font-size:12px;font-weight:600;color:#f4f1fb;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;pointer-events:none';
  return label;
}

/**
 * The song's waveform (wavesurfer.js, loaded with this page only) with every word as a region
 * that can be dragged and resized (SPEC 2 word editor). The library draws and moves regions;
 * the editor's draft stays the one truth, and the regions follow it.
 */
export function WordWaveform({ media, url, words, selected, onRetime, onSelect }: WordWaveformProps) {
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  const regionsRef = useRef<Regions | null>(null);
  // A new URL mounts a new waveform (the page keys it by URL), so 'loading' is only the first state.
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const callbacks = useRef({ onRetime, onSelect });
  useEffect(() => {
    callbacks.current = { onRetime, onSelect };
  });

  useEffect(() => {
    let surfer: WaveSurfer | null = null;
    let cancelled = false;
    // Without a waveform the song still plays: the element gets the URL itself.
    const fail = () => {
      if (cancelled) return;
      setState('failed');
      setMediaSource(media, url);
    };
    void (async () => {
      try {
        const [{ default: WaveSurferClass }, { default: Plugin }] = await Promise.all([
          import('wavesurfer.js'),
          import('wavesurfer.js/dist/plugins/regions.js'),
        ]);
        if (cancelled || !container.current) return;
        const regions = Plugin.create();
        surfer = WaveSurferClass.create({
          container: container.current,
          media,
          url,
          height: 112,
          waveColor: '#6f6787',
          progressColor: '#c084fc',
          cursorColor: '#f4f1fb',
          barWidth: 2,
          barGap: 1,
          barRadius: 2,
          minPxPerSec: PIXELS_PER_SECOND,
          autoScroll: true,
          autoCenter: true,
          dragToSeek: true,
        });
        surfer.registerPlugin(regions);
        surfer.on('ready', () => {
          regionsRef.current = regions;
          if (!cancelled) setState('ready');
        });
        surfer.on('error', () => fail());
        regions.on('region-updated', (region) => callbacks.current.onRetime(region.id, region.start, region.end));
        regions.on('region-clicked', (region, event) => {
          event.stopPropagation();
          callbacks.current.onSelect(region.id);
        });
      } catch {
        fail();
      }
    })();
    return () => {
      cancelled = true;
      regionsRef.current = null;
      surfer?.destroy();
    };
  }, [media, url]);

  // The regions follow the draft: added, moved, renamed, removed.
  useEffect(() => {
    const regions = regionsRef.current;
    if (state !== 'ready' || !regions) return;
    const existing = new Map<string, Region>(regions.getRegions().map((region) => [region.id, region]));
    for (const word of words) {
      const color = selected.has(word.key) ? SELECTED_COLOR : WORD_COLOR;
      const region = existing.get(word.key);
      existing.delete(word.key);
      if (!region) {
        regions.addRegion({
          id: word.key,
          start: word.start,
          end: Math.max(word.end, word.start + 0.01),
          color,
          content: regionLabel(word.text),
          drag: true,
          resize: true,
          minLength: 0.05,
        });
        continue;
      }
      if (Math.abs(region.start - word.start) > 1e-4 || Math.abs(region.end - word.end) > 1e-4) {
        region.setOptions({ start: word.start, end: Math.max(word.end, word.start + 0.01) });
      }
      if (region.color !== color) region.setOptions({ color });
      if (region.content?.textContent !== word.text) region.setContent(regionLabel(word.text));
    }
    for (const stale of existing.values()) stale.remove();
  }, [words, selected, state]);

  return (
    <div className="relative min-h-[128px] overflow-hidden rounded-2xl border border-border bg-surface/60 p-2">
      <div ref={container} data-testid="word-waveform" dir="ltr" aria-label={t('wordWaveformLabel')} role="group" />
      {state === 'loading' ? (
        <div className="absolute inset-0 flex items-center justify-center gap-2 text-sm text-muted">
          <Spinner /> {t('wordWaveformLoading')}
        </div>
      ) : null}
      {state === 'failed' ? (
        <p role="alert" className="absolute inset-0 flex items-center justify-center px-4 text-center text-sm text-muted">
          {t('wordWaveformFailed')}
        </p>
      ) : null}
    </div>
  );
}
