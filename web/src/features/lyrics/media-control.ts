/**
 * Changes to a media element, kept out of components: the element is an outside system that
 * React only holds on to, and these are its commands.
 */
export function seekMedia(media: HTMLMediaElement, seconds: number): void {
  if (Number.isFinite(seconds)) media.currentTime = Math.max(0, seconds);
}

export function setMediaSource(media: HTMLMediaElement, url: string): void {
  if (media.src !== url) media.src = url;
}

export function releaseMedia(media: HTMLMediaElement): void {
  media.pause();
  media.removeAttribute('src');
  media.load();
}

export function createEditorAudio(): HTMLAudioElement {
  const audio = new Audio();
  audio.preload = 'auto';
  audio.dataset['encoreWordEditor'] = '';
  return audio;
}
