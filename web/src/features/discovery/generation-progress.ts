import { AI_PROGRESS_CAP, AI_PROGRESS_STEP_MAX, AI_PROGRESS_TICK_MS } from '@encore/common/discovery.contract';
import { useEffect, useState } from 'react';

/** SPEC 9: the generation bar ticks every 0.8 s, rising by up to about 10, capped at 95 until done. */
export const GENERATION_TICK_MS = AI_PROGRESS_TICK_MS;
const GENERATION_PROGRESS_CAP = AI_PROGRESS_CAP;
const GENERATION_MAX_RISE = AI_PROGRESS_STEP_MAX;

/** One tick of the bar when the server reports no progress of its own: up 1 to 10, never past the cap. */
export function nextTickProgress(current: number, random: () => number = Math.random): number {
  const rise = 1 + Math.floor(random() * GENERATION_MAX_RISE);
  return Math.min(GENERATION_PROGRESS_CAP, current + rise);
}

/** What the bar shows: 100 once done; else the server's progress when it gives one, else the ticks; capped at 95. */
export function shownProgress(done: boolean, real: number | null, ticked: number): number {
  if (done) return 100;
  const value = real ?? ticked;
  return Math.min(GENERATION_PROGRESS_CAP, Math.max(0, Math.round(value)));
}

/**
 * The generation progress bar (SPEC 4 and 9, DECISIONS: real progress). While `active` it ticks
 * every 0.8 s; `real` (0-100, null when the server gives none) takes over once it arrives;
 * `done` shows 100. Going inactive without being done resets it to 0.
 */
export function useGenerationProgress({ active, done, real }: { active: boolean; done: boolean; real: number | null }): number {
  const [ticked, setTicked] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTicked((current) => nextTickProgress(current)), GENERATION_TICK_MS);
    return () => {
      clearInterval(timer);
      setTicked(0); // the next generation starts from 0
    };
  }, [active]);
  if (!active && !done) return 0;
  return shownProgress(done, real, ticked);
}
