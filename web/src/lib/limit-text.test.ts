import { limitMessage } from '@encore/common/limit-messages';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { apiErrorText } from './api-error-toast';
import { setLanguage } from './i18n/i18n.store';
import { localizedServerMessage } from './limit-text';

describe("the per-user limits' answers", () => {
  afterEach(() => setLanguage('en'));

  const storage = limitMessage('limitStorageNoRoom', { used: '9.5 MB', quota: '10.0 MB', size: '1.2 MB' });
  const renders = limitMessage('limitRenders', { max: 2 });
  const ai = limitMessage('limitAiPerMinute', { max: 20, seconds: 37 });

  it('are shown as the server wrote them in English', () => {
    setLanguage('en');
    expect(localizedServerMessage(storage)).toBe(storage);
    expect(new ApiError(429, renders, renders).serverMessage).toBe(renders);
  });

  it('are shown in Hebrew with the same figures, wherever an API failure is shown', () => {
    setLanguage('he');
    expect(localizedServerMessage(storage)).toBe(
      // Each size isolated left to right (U+2066 … U+2069), so "9.5 MB" reads as it does in English.
      'אין מקום לשיר הזה: השירים שלך תופסים \u20669.5 MB\u2069 מתוך \u206610.0 MB\u2069, והקובץ הזה בגודל \u20661.2 MB\u2069. יש למחוק כמה מהשירים שלך כדי לפנות מקום.',
    );
    expect(localizedServerMessage(ai)).toBe('יצרת את המספר המרבי של פלייליסטים בעזרת AI שמותר בדקה (20). נא לנסות שוב בעוד 37 שניות.');
    const error = new ApiError(429, renders, renders);
    expect(error.message).toBe('כבר יש לך את המספר המרבי של קליפים בעיבוד או בהמתנה בו־זמנית (2). נא להמתין שאחד מהם יסתיים ולנסות שוב.');
    expect(apiErrorText(error, { fallback: 'Failed' })).toBe(error.message);
    // Statuses whose server message a page does not show still fall back.
    expect(apiErrorText(error, { fallback: 'Failed', serverMessage: [400] })).toBe('Failed');
  });

  it('leave every other message alone, in any language', () => {
    setLanguage('he');
    expect(localizedServerMessage('Song already in playlist')).toBe('Song already in playlist');
    expect(new ApiError(409, 'Song already in playlist', 'Song already in playlist').serverMessage).toBe('Song already in playlist');
    expect(new ApiError(0, 'Failed to fetch', null).serverMessage).toBeNull();
  });
});
