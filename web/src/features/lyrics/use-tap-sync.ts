import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import { seekMedia } from './media-control';
import { roundTime, type EditorWord, type WordAction } from './word-editor.state';

export interface TapSync {
  active: boolean;
  /** The word the next tap times. */
  index: number;
  start: (fromIndex: number) => void;
  stop: () => void;
  /** A tap begins: the current word starts now. */
  press: () => void;
  /** The tap ends: the current word ends now, and the next one is up. */
  release: () => void;
}

/** Keys that tap while syncing (held while the word is sung). */
const TAP_KEYS = new Set([' ', 'Enter']);

/**
 * Tap-to-sync (SPEC 2 word editor): the song plays and the user holds a key (space or Enter,
 * or the Tap button) while each word is sung; press and release set its start and end. One
 * session is one undo step.
 */
export function useTapSync(media: HTMLAudioElement | null, words: readonly EditorWord[], dispatch: Dispatch<WordAction>): TapSync {
  const [active, setActive] = useState(false);
  const [index, setIndex] = useState(0);
  const session = useRef(0);
  const pressed = useRef(false);
  const latest = useRef({ words, index });
  useEffect(() => {
    latest.current = { words, index };
  });

  const stop = useCallback(() => {
    setActive(false);
    pressed.current = false;
    media?.pause();
  }, [media]);

  const start = useCallback(
    (fromIndex: number) => {
      if (!media || words.length === 0) return;
      session.current += 1;
      const from = Math.min(Math.max(0, fromIndex), words.length - 1);
      setIndex(from);
      setActive(true);
      // Start a little before the word, so the user hears it coming.
      seekMedia(media, (words[from]?.start ?? 0) - 2);
      void media.play().catch(() => setActive(false));
    },
    [media, words],
  );

  const press = useCallback(() => {
    const word = latest.current.words[latest.current.index];
    if (!media || !word || pressed.current) return;
    pressed.current = true;
    const now = roundTime(media.currentTime);
    dispatch({ type: 'change', key: word.key, patch: { start: now, end: now }, group: `tap:${session.current}` });
  }, [media, dispatch]);

  const release = useCallback(() => {
    const { words: current, index: at } = latest.current;
    const word = current[at];
    if (!media || !word || !pressed.current) return;
    pressed.current = false;
    const now = roundTime(Math.max(media.currentTime, word.start));
    dispatch({ type: 'change', key: word.key, patch: { end: now }, group: `tap:${session.current}` });
    if (at + 1 >= current.length) stop();
    else setIndex(at + 1);
  }, [media, dispatch, stop]);

  useEffect(() => {
    if (!active) return undefined;
    const down = (event: KeyboardEvent) => {
      if (event.key === 'Escape') return stop();
      if (!TAP_KEYS.has(event.key)) return;
      // The tap is ours: not the focused button's click, not the player's play/pause.
      event.preventDefault();
      event.stopPropagation();
      if (!event.repeat) press();
    };
    const up = (event: KeyboardEvent) => {
      if (!TAP_KEYS.has(event.key)) return;
      event.preventDefault();
      event.stopPropagation();
      release();
    };
    const ended = () => stop();
    window.addEventListener('keydown', down, { capture: true });
    window.addEventListener('keyup', up, { capture: true });
    media?.addEventListener('ended', ended);
    return () => {
      window.removeEventListener('keydown', down, { capture: true });
      window.removeEventListener('keyup', up, { capture: true });
      media?.removeEventListener('ended', ended);
    };
  }, [active, press, release, stop, media]);

  return { active, index, start, stop, press, release };
}
