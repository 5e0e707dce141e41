import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIP_SETTINGS, clipFrameSize, clipSettingsInputSchema, clipSettingsSchema } from './clips.contract.js';

describe('clip settings', () => {
  it('accepts the spec defaults', () => {
    expect(clipSettingsSchema.parse(DEFAULT_CLIP_SETTINGS)).toEqual(DEFAULT_CLIP_SETTINGS);
  });
  it('fills a partial input from the defaults', () => {
    const parsed = clipSettingsInputSchema.parse({ videoFormat: 'gif', textStyles: { bold: true } });
    expect(parsed).toMatchObject({ videoFormat: 'gif', framerate: 30, textStyles: { bold: true, italic: false, underline: false } });
  });
  it('refuses values out of range or of the wrong type, naming the field', () => {
    const tooFast = clipSettingsInputSchema.safeParse({ framerate: 61 });
    expect(tooFast.success).toBe(false);
    expect(tooFast.error?.issues[0]?.path).toEqual(['framerate']);
    expect(clipSettingsInputSchema.safeParse({ audioFadeIn: 3.5 }).success).toBe(false);
    expect(clipSettingsInputSchema.safeParse({ videoQuality: '8k' }).success).toBe(false);
    expect(clipSettingsInputSchema.safeParse({ autoSync: 'yes' }).success).toBe(false);
    expect(clipSettingsInputSchema.safeParse({ startTime: 10, endTime: 5 }).success).toBe(false);
    expect(clipSettingsInputSchema.safeParse('settings').success).toBe(false);
  });
  it('sizes the frame from quality and aspect ratio', () => {
    expect(clipFrameSize('high', '16:9')).toEqual({ width: 1920, height: 1080 });
    expect(clipFrameSize('low', '16:9')).toEqual({ width: 854, height: 480 });
    expect(clipFrameSize('medium', '9:16')).toEqual({ width: 720, height: 1280 });
    expect(clipFrameSize('ultra', '1:1')).toEqual({ width: 2160, height: 2160 });
  });
});
