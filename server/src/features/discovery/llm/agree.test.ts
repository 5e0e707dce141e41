import { describe, expect, it } from 'vitest';
import { parsePrompt } from '../prompt/parse-prompt.js';
import { promptQuery } from '../prompt/prompt-query.js';
import { agreeWithEmbedded } from './agree.js';

const none = { artists: [], albums: [], genres: ['Rock'] };

describe('the LLM query agrees with the embedded reading', () => {
  it('keeps what the rules read for certain: negations, themes, nostalgic, romantic, voice', () => {
    // A model that reads "don't fall asleep" as "loud", "nostalgic" as a sound and ignores the theme.
    const llm = promptQuery.parse({ targets: { energy: 0.95, loudness: 0.9, acousticness: 0.7 }, tempo: { min: 140 }, flow: 'build-up', genres: ['rock'] });
    const embedded = parsePrompt("nostalgic songs about the sea to study so I don't fall asleep, no rock", none);
    const agreed = agreeWithEmbedded(llm, embedded);
    expect(agreed.targets.energy).toBe(embedded.targets.energy);
    expect(agreed.targets.energy).toBeLessThan(0.5);
    expect(agreed.targets.acousticness).toBe(0.7); // the model's addition stays
    expect(agreed.tempo).toBeUndefined(); // the rules read tempo on the library's scale
    expect(agreed.era).toBe('oldest');
    expect(agreed.lyrics).toEqual(['sea']);
    expect(agreed.genres).toEqual([]); // "no rock" wins over the model's "rock"
    expect(agreed.excludeGenres).toEqual(['rock']);
    expect(agreed.flow).toBe('build-up'); // the rules had no flow: the model's stays
    expect(agreeWithEmbedded(promptQuery.parse({ instrumental: false }), parsePrompt('instrumental', none)).instrumental).toBe(true);
    expect(agreeWithEmbedded(promptQuery.parse({}), parsePrompt('romantic', none)).preferLyrics).toEqual(['love']);
  });

  it("takes the model's reading of words the rules do not know", () => {
    const llm = promptQuery.parse({ targets: { energy: 0.2 }, lyrics: ['campfire'], era: 'oldest', scope: 'favourites' });
    const agreed = agreeWithEmbedded(llm, parsePrompt("songs for sitting by a campfire in grandpa's days", none));
    expect(agreed).toMatchObject({ targets: { energy: 0.2 }, lyrics: ['campfire'], era: 'oldest', scope: 'favourites' });
  });
});
