import '@testing-library/jest-dom/vitest';
// The app's message catalogues, as main.tsx installs them.
import '../app/i18n';
import { act, cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll } from 'vitest';
import { loadLanguage } from '../lib/i18n/i18n.store';
import { radio } from '../features/radio/radio.store';
import { player } from '../player/player.store';

// Hebrew is downloaded when chosen; the tests switch languages at once, so it is here from the start.
beforeAll(() => loadLanguage('he'));

// The tests run beside the server suite on two cores; a loaded machine can take more than the
// default second to render a page after a request, which is not what these tests are about.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // The app's one player and its radio outlive a rendered tree, as they do across pages.
  act(() => {
    player.close();
    radio.stop();
  });
  cleanup();
  // Sonner keeps its toasts in a module-level list that outlives the rendered app.
  toast.dismiss();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom lacks these browser APIs that Radix primitives use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;
const elementPrototype = Element.prototype as unknown as Record<string, unknown>;
elementPrototype.hasPointerCapture ??= () => false;
elementPrototype.scrollIntoView ??= () => {};

// jsdom has media elements but no playback: play() and pause() flip `paused` and fire the
// events a browser fires, load() does nothing. Metadata never loads by itself; tests that need
// it dispatch 'loadedmetadata' on the player's element.
const media = HTMLMediaElement.prototype;
function setPaused(element: HTMLMediaElement, paused: boolean) {
  Object.defineProperty(element, 'paused', { value: paused, configurable: true });
}
media.play = function play(this: HTMLMediaElement) {
  setPaused(this, false);
  this.dispatchEvent(new Event('play'));
  return Promise.resolve();
};
media.pause = function pause(this: HTMLMediaElement) {
  if (this.paused) return;
  setPaused(this, true);
  this.dispatchEvent(new Event('pause'));
};
media.load = function load() {};

// Object URLs (cover art, downloads) are not in jsdom.
URL.createObjectURL ??= () => `blob:test/${Math.random().toString(36).slice(2)}`;
URL.revokeObjectURL ??= () => {};

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};
