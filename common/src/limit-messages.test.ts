import { describe, expect, it } from 'vitest';
import { formatLimitBytes, limitMessage, limitMessagesEn, parseLimitMessage, type LimitMessageKey } from './limit-messages.js';

describe('limit messages', () => {
  it('fill in their figures, and give back the key and the figures of any answer made from them', () => {
    const storage = limitMessage('limitStorageNoRoom', { used: '9.5 MB', quota: '10.0 MB', size: '1.2 MB' });
    expect(storage).toBe(
      'There is no room for this song: your songs use 9.5 MB of your 10.0 MB, and this file is 1.2 MB. Delete some of your songs to make room.',
    );
    expect(parseLimitMessage(storage)).toEqual({ key: 'limitStorageNoRoom', figures: { used: '9.5 MB', quota: '10.0 MB', size: '1.2 MB' } });
    const ai = limitMessage('limitAiPerMinute', { max: 20, seconds: 7 });
    expect(parseLimitMessage(ai)).toEqual({ key: 'limitAiPerMinute', figures: { max: '20', seconds: '7' } });
    for (const key of Object.keys(limitMessagesEn) as LimitMessageKey[]) {
      expect(parseLimitMessage(limitMessage(key, { used: '1 B', quota: '2 B', size: '3 B', max: 4, seconds: 5 }))?.key).toBe(key);
    }
  });

  it('recognise nothing else: other answers, a limit message with more around it, an empty string', () => {
    expect(parseLimitMessage('Failed to generate playlist. Please try again.')).toBeNull();
    expect(parseLimitMessage(`Error: ${limitMessage('limitRenders', { max: 2 })}`)).toBeNull();
    expect(parseLimitMessage(`${limitMessage('limitRenders', { max: 2 })}\nmore`)).toBeNull();
    expect(parseLimitMessage('')).toBeNull();
  });

  it('show sizes as the web app does (one decimal, 1024 steps), GB past 1024 MB', () => {
    expect(formatLimitBytes(0)).toBe('0 B');
    expect(formatLimitBytes(1023)).toBe('1023 B');
    expect(formatLimitBytes(1024)).toBe('1.0 KB');
    expect(formatLimitBytes(256 * 1024)).toBe('256.0 KB');
    expect(formatLimitBytes(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(formatLimitBytes(5 * 1024 ** 3)).toBe('5.0 GB');
  });
});
