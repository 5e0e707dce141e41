import { AI_MOODS, type AiMood } from '@encore/common/discovery.contract';
import type { MessageKey } from '../../lib/i18n/catalogue';

/** The ten mood chips of SPEC 2 and 9, in the spec's order; labels come from the catalogue. */
export const MOODS = AI_MOODS;
export type Mood = AiMood;

const moodKeys: Record<Mood, MessageKey> = {
  Energetic: 'moodEnergetic',
  Relaxing: 'moodRelaxing',
  Nostalgic: 'moodNostalgic',
  Romantic: 'moodRomantic',
  Melancholic: 'moodMelancholic',
  Uplifting: 'moodUplifting',
  Focused: 'moodFocused',
  Dreamy: 'moodDreamy',
  Intense: 'moodIntense',
  Peaceful: 'moodPeaceful',
};

export const moodLabelKey = (mood: Mood): MessageKey => moodKeys[mood];

/** The five example prompts of SPEC 9 (in English, common's AI_EXAMPLE_PROMPTS); tapping one puts its text in the prompt. */
export const EXAMPLE_PROMPT_KEYS = ['aiExample1', 'aiExample2', 'aiExample3', 'aiExample4', 'aiExample5'] as const satisfies readonly MessageKey[];

/**
 * SPEC 4: selecting a mood appends its lowercase text to the prompt (after a space when the
 * prompt has text); deselecting leaves the prompt as it is.
 */
export function appendMood(prompt: string, moodText: string): string {
  const word = moodText.toLocaleLowerCase();
  const head = prompt.replace(/\s+$/u, '');
  return head ? `${head} ${word}` : word;
}

/** The chips after a tap: the mood joins the selection, or leaves it when it was there. */
export function toggleMood(selected: readonly Mood[], mood: Mood): Mood[] {
  return selected.includes(mood) ? selected.filter((entry) => entry !== mood) : [...selected, mood];
}
