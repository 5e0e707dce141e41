import { useEffect } from 'react';
import { player } from './player.store';

/** How far the arrow keys move within the song. */
export const KEYBOARD_SEEK_SECONDS = 5;

/** Where the key belongs to the focused element: typing, or a control that handles it itself. */
function keyBelongsToTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, [role="slider"], [role="textbox"], [role="listbox"], [role="menu"]')) return true;
  // Space activates a focused button or link; playing/pausing as well would do it twice.
  return key === ' ' && target.closest('button, a[href], [role="button"], [role="checkbox"], [role="tab"]') !== null;
}

/**
 * Space plays/pauses and the left/right arrows seek 5 s, anywhere on the page while a song is
 * selected, except while typing or when the focused control uses the key itself.
 */
export function usePlayerKeyboard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || (event.repeat && event.key === ' ')) return;
      if (event.key !== ' ' && event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      if (keyBelongsToTarget(event.target, event.key)) return;
      event.preventDefault();
      if (event.key === ' ') player.toggle();
      else player.seekBy(event.key === 'ArrowRight' ? KEYBOARD_SEEK_SECONDS : -KEYBOARD_SEEK_SECONDS);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
