import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { player } from '../../player/player.store';
import { fetchPlayUrl } from '../../player/player.api';
import { createEditorAudio, releaseMedia } from './media-control';
import type { EditorWord } from './word-editor.state';

/**
 * The word editor's own audio element, playing the song through its signed play URL. The
 * waveform loads it (wavesurfer.js sets its source and waits for it: setting it here too
 * would race it), draws it and drives it; the preview and tap-to-sync read its clock. The app's player
 * pauses while it plays, so two songs never sound at once.
 */
export function useEditorAudio(songId: number) {
  const [media] = useState(createEditorAudio);
  const url = useQuery({
    queryKey: ['songs', 'play-url', songId, 'word-editor'],
    queryFn: ({ signal }) => fetchPlayUrl(songId, signal),
    // Signed URLs expire; the editor keeps the one it loaded for as long as it is open.
    staleTime: Infinity,
    gcTime: 0,
  });

  useEffect(() => {
    const onPlay = () => player.pause();
    media.addEventListener('play', onPlay);
    return () => {
      media.removeEventListener('play', onPlay);
      releaseMedia(media);
    };
  }, [media]);

  return { media, url: url.data ?? null, urlError: url.error };
}

/** Whether the element is playing, as a React value. */
export function useMediaPlaying(media: HTMLMediaElement): boolean {
  return useSyncExternalStore(
    (notify) => {
      const events = ['play', 'pause', 'ended', 'emptied'];
      events.forEach((name) => media.addEventListener(name, notify));
      return () => events.forEach((name) => media.removeEventListener(name, notify));
    },
    () => !media.paused,
  );
}

/**
 * Calls `onFrame` with the element's time every animation frame while it plays, and on seeks
 * and time updates while paused.
 */
function useMediaFrames(media: HTMLMediaElement, onFrame: (seconds: number) => void): void {
  const latest = useRef(onFrame);
  useEffect(() => {
    latest.current = onFrame;
  });
  useEffect(() => {
    let frame = 0;
    const read = () => latest.current(media.currentTime);
    const loop = () => {
      read();
      if (!media.paused) frame = requestAnimationFrame(loop);
    };
    const start = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(loop);
    };
    media.addEventListener('play', start);
    media.addEventListener('seeked', read);
    media.addEventListener('timeupdate', read);
    read();
    if (!media.paused) start();
    return () => {
      cancelAnimationFrame(frame);
      media.removeEventListener('play', start);
      media.removeEventListener('seeked', read);
      media.removeEventListener('timeupdate', read);
    };
  }, [media]);
}

/** The element's time, rounded to `resolution` seconds so a re-render happens only on a visible change. */
export function useMediaTime(media: HTMLMediaElement, resolution = 0.01): number {
  const [time, setTime] = useState(0);
  useMediaFrames(media, (seconds) => setTime(Math.round(seconds / resolution) * resolution));
  return time;
}

/** The key of the word being sung now (none between words); changes only when it does. */
export function useActiveWordKey(media: HTMLMediaElement, words: readonly EditorWord[]): string | null {
  const [key, setKey] = useState<string | null>(null);
  useMediaFrames(media, (seconds) => {
    // The words are in time order, a few thousand at most: a scan per frame is nothing.
    const word = words.findLast((candidate) => candidate.start <= seconds);
    setKey(word && seconds < word.end ? word.key : null);
  });
  return key;
}
