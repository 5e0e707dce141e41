import { buildClipSubtitles } from '@encore/common/clip-subtitles';
import { clipText, type ClipLyrics } from '@encore/common/clip-text';
import { clipFrameSize, type ClipSettings } from '@encore/common/clips.contract';
import type { Word } from '@encore/common/words.contract';
import { clipFontUrls } from './clip-font-files';
import type { SubtitleDocument } from './subtitle-layer';

export interface PreviewSubtitleInput {
  settings: ClipSettings;
  /** The words create-clip sends (the editor's, SPEC 3). */
  words: readonly Word[];
  /** The song's lyrics (its lines and word timings): drawn when there are no words, as the renderer does. */
  lyrics?: ClipLyrics | null;
  /** The clip's span in song seconds, as the renderer takes it. */
  start: number;
  end: number;
  /** Drawn over the whole clip when there are neither words nor lyrics, so the style can be seen (at any time: without the entrance animation). */
  sampleText: string;
}

/**
 * The subtitle document the renderer will burn in, built by the same functions from the same
 * inputs (its phase 3): the clip's text (the words, else the song's lyrics: common/clip-text),
 * the settings as the text style, the frame of the chosen quality and aspect ratio, the clip's
 * start and end.
 */
export function previewSubtitles({ settings, words, lyrics, start, end, sampleText }: PreviewSubtitleInput): SubtitleDocument {
  const { width, height } = clipFrameSize(settings.videoQuality, settings.aspectRatio);
  const text = clipText(words, lyrics);
  const hasText = text.words.length > 0;
  const shown = hasText ? text : { words: [{ text: sampleText, start: 0, end: 0 }], karaoke: false };
  const style = hasText ? settings : { ...settings, animation: 'none' as const };
  const ass = buildClipSubtitles({ words: shown.words, karaoke: shown.karaoke, style, width, height, start, end });
  return {
    ass,
    fonts: clipFontUrls(
      settings,
      shown.words.map((word) => word.text),
    ),
    width,
    height,
  };
}
