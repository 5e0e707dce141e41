import { buildClipSubtitles } from '@encore/common/clip-subtitles';
import { clipText } from '@encore/common/clip-text';
import { DEFAULT_CLIP_SETTINGS } from '@encore/common/clips.contract';
import { describe, expect, it } from 'vitest';
import { previewSubtitles } from './preview-subtitles';

const words = [
  { text: 'Hello', start: 10.5, end: 11 },
  { text: 'world', start: 11.2, end: 12 },
];

describe('previewSubtitles', () => {
  it('is the document the renderer burns in: the same function on the words, the style and the frame of the chosen quality and aspect ratio', () => {
    const settings = { ...DEFAULT_CLIP_SETTINGS, videoQuality: 'medium' as const, aspectRatio: '9:16' as const, textPosition: 'top' as const };
    const preview = previewSubtitles({ settings, words, start: 10, end: 14, sampleText: 'unused' });
    expect(preview).toMatchObject({ width: 720, height: 1280, fonts: ['/api/clips/fonts/LiberationSans-Regular.ttf'] });
    expect(preview.ass).toBe(buildClipSubtitles({ words, style: settings, width: 720, height: 1280, start: 10, end: 14 }));
  });

  it('draws an untimed song’s lyrics as the renderer does: its lines by SPEC 9’s rule, plain, never the sample text', () => {
    // The lyrics model of a 4 s song: two untimed lines, 0-2 s and 2-4 s.
    const lyrics = {
      lines: [
        { text: 'Hello bright world', startTime: 0, endTime: 2, isHeader: false },
        { text: 'Second line here', startTime: 2, endTime: 4, isHeader: false },
      ],
      words: null,
    };
    const { ass } = previewSubtitles({ settings: DEFAULT_CLIP_SETTINGS, words: [], lyrics, start: 0, end: 4, sampleText: 'Your lyrics appear here' });
    expect(ass).toBe(buildClipSubtitles({ ...clipText([], lyrics), style: DEFAULT_CLIP_SETTINGS, width: 1920, height: 1080, start: 0, end: 4 }));
    expect(ass).toMatch(/Dialogue: 1,0:00:00\.00,0:00:01\.75,Text,.*Hello bright world/);
    expect(ass).toMatch(/Dialogue: 1,0:00:01\.75,0:00:04\.00,Text,.*Second line here/);
    expect(ass).not.toContain('Your lyrics appear here');
  });

  it('shows the sample text over the whole clip when there are no words, without fading it in (a paused preview shows it)', () => {
    const { ass } = previewSubtitles({
      settings: { ...DEFAULT_CLIP_SETTINGS, animation: 'fade' },
      words: [],
      start: 0,
      end: 3,
      sampleText: 'Your lyrics appear here',
    });
    expect(ass).toMatch(/Dialogue: 1,0:00:00\.00,0:00:03\.00,Text,.*Your lyrics appear here/);
    expect(ass).not.toContain('\\fad');
  });
});
