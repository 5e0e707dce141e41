import { MUSIC_PAGE_SIZE_COMPACT, MUSIC_PAGE_SIZE_GRID } from '@encore/common/constants';
import { useState } from 'react';

export type MusicView = 'grid' | 'compact';

/** Songs per page: 8 in the grid, 12 in the compact list (SPEC 9). */
export const PAGE_SIZE: Record<MusicView, number> = { grid: MUSIC_PAGE_SIZE_GRID, compact: MUSIC_PAGE_SIZE_COMPACT };

const VIEW_STORAGE_KEY = 'music-view';

function storedView(): MusicView {
  try {
    return globalThis.localStorage?.getItem(VIEW_STORAGE_KEY) === 'compact' ? 'compact' : 'grid';
  } catch {
    return 'grid'; // storage blocked: the default view
  }
}

/** The grid/compact choice, remembered on this device. */
export function useMusicView(): [MusicView, (view: MusicView) => void] {
  const [view, setView] = useState<MusicView>(storedView);
  const choose = (next: MusicView) => {
    setView(next);
    try {
      globalThis.localStorage?.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice holds for this visit
    }
  };
  return [view, choose];
}
