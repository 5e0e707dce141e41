import { describe, expect, it } from 'vitest';
import { clipFallbackFonts, clipFontFile, clipFontUrls } from './clip-font-files';

const plain = { bold: false, italic: false, underline: false };

describe('clip font files', () => {
  it('picks the file of the weight and slant libass asks for, as the renderer finds it in the fonts folder', () => {
    expect(clipFontFile('Liberation Sans', false, false)).toBe('LiberationSans-Regular.ttf');
    expect(clipFontFile('Liberation Serif', true, true)).toBe('LiberationSerif-BoldItalic.ttf');
    // Dancing Script has no italic files (libass slants the upright one) and Lobster Two no bold.
    expect(clipFontFile('Dancing Script', true, true)).toBe('DancingScript-Bold.otf');
    expect(clipFontFile('Lobster Two', true, false)).toBe('LobsterTwo-Regular.otf');
  });

  it('loads the family in the chosen style, and the sans face too for Hebrew the script families lack', () => {
    expect(clipFontUrls({ fontFamily: 'serif', textStyles: { ...plain, bold: true } }, ['Hello'])).toEqual(['/api/clips/fonts/LiberationSerif-Bold.ttf']);
    expect(clipFontUrls({ fontFamily: 'cursive', textStyles: plain }, ['Hello', 'שלום'])).toEqual([
      '/api/clips/fonts/DancingScript-Regular.otf',
      '/api/clips/fonts/LiberationSans-Regular.ttf',
    ]);
    // Liberation covers Hebrew itself.
    expect(clipFontUrls({ fontFamily: 'monospace', textStyles: { ...plain, italic: true } }, ['שלום'])).toEqual(['/api/clips/fonts/LiberationMono-Italic.ttf']);
  });

  it('names every face for libass to fetch on demand', () => {
    expect(Object.keys(clipFallbackFonts()).sort()).toEqual(['dancing script', 'liberation mono', 'liberation sans', 'liberation serif', 'lobster two']);
  });
});
