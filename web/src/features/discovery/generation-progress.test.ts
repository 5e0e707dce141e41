import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENERATION_TICK_MS, nextTickProgress, shownProgress, useGenerationProgress } from './generation-progress';

describe('generation progress (SPEC 9: 0.8 s ticks of up to about 10, capped at 95, then 100)', () => {
  it('rises by 1 to 10 a tick and never past 95', () => {
    expect(nextTickProgress(0, () => 0)).toBe(1);
    expect(nextTickProgress(0, () => 0.999)).toBe(10);
    expect(nextTickProgress(90, () => 0.999)).toBe(95);
    expect(nextTickProgress(95, () => 0.5)).toBe(95);
  });

  it("shows the server's progress when there is one, capped at 95 until done", () => {
    expect(shownProgress(false, null, 40)).toBe(40);
    expect(shownProgress(false, 70, 40)).toBe(70);
    expect(shownProgress(false, 100, 40)).toBe(95);
    expect(shownProgress(true, 10, 40)).toBe(100);
  });

  describe('the hook', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('ticks every 0.8 s while active, stays under 95, shows 100 when done and 0 when idle again', () => {
      const { result, rerender } = renderHook((props: { active: boolean; done: boolean }) => useGenerationProgress({ ...props, real: null }), {
        initialProps: { active: true, done: false },
      });
      expect(result.current).toBe(0);
      act(() => vi.advanceTimersByTime(GENERATION_TICK_MS));
      expect(result.current).toBeGreaterThanOrEqual(1);
      expect(result.current).toBeLessThanOrEqual(10);
      act(() => vi.advanceTimersByTime(GENERATION_TICK_MS * 100));
      expect(result.current).toBe(95);
      rerender({ active: false, done: true });
      expect(result.current).toBe(100);
      rerender({ active: false, done: false });
      expect(result.current).toBe(0);
    });
  });
});
