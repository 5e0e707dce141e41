import { AI_EXAMPLE_PROMPTS, AI_MOODS } from '@encore/common/discovery.contract';
import { describe, expect, it } from 'vitest';
import { translate } from '../../lib/i18n/i18n.store';
import { appendMood, EXAMPLE_PROMPT_KEYS, moodLabelKey, toggleMood } from './prompt-moods';

describe('mood chips (SPEC 4)', () => {
  it('appends the lowercase mood after a space, or alone on an empty prompt', () => {
    expect(appendMood('', 'Energetic')).toBe('energetic');
    expect(appendMood('   ', 'Energetic')).toBe('energetic');
    expect(appendMood('songs for running  ', 'Intense')).toBe('songs for running intense');
    expect(appendMood('שירים', 'מרגיע')).toBe('שירים מרגיע');
  });

  it('toggles a mood in and out of the selection', () => {
    expect(toggleMood([], 'Dreamy')).toEqual(['Dreamy']);
    expect(toggleMood(['Dreamy', 'Intense'], 'Dreamy')).toEqual(['Intense']);
  });
});

describe('the catalogue and the contract agree', () => {
  it("the English examples and mood labels are the contract's", () => {
    expect(EXAMPLE_PROMPT_KEYS.map((key) => translate(key, undefined, 'en'))).toEqual([...AI_EXAMPLE_PROMPTS]);
    expect(AI_MOODS.map((mood) => translate(moodLabelKey(mood), undefined, 'en'))).toEqual([...AI_MOODS]);
  });
});
