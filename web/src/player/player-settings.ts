import { createStore, useStore } from '../lib/create-store';
import { NORMALISATION_MODES, type LoudnessSettings, type NormalisationMode } from './loudness';

/** The listener's player settings, kept in this browser (localStorage) under this key. */
export const PLAYER_SETTINGS_KEY = 'encore.player.settings';

export interface PlayerSettings extends LoudnessSettings {
  /** Seconds one song fades into the next; 0 joins them gaplessly. */
  crossfadeSeconds: number;
}

export const TARGET_LUFS_RANGE = { min: -23, max: -8, step: 1 } as const;
export const PREAMP_DB_RANGE = { min: -12, max: 12, step: 0.5 } as const;
export const CROSSFADE_SECONDS_RANGE = { min: 0, max: 12, step: 1 } as const;

export const defaultPlayerSettings: PlayerSettings = {
  mode: 'track',
  targetLufs: -14,
  preampDb: 0,
  crossfadeSeconds: 0,
};

function within(value: unknown, range: { min: number; max: number }, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(range.max, Math.max(range.min, value)) : fallback;
}

/** Settings read back from storage: anything missing, unknown or out of range takes its default. */
export function parsePlayerSettings(text: string | null): PlayerSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    // A damaged entry: the defaults.
  }
  const mode = NORMALISATION_MODES.includes(raw['mode'] as NormalisationMode) ? (raw['mode'] as NormalisationMode) : defaultPlayerSettings.mode;
  return {
    mode,
    targetLufs: within(raw['targetLufs'], TARGET_LUFS_RANGE, defaultPlayerSettings.targetLufs),
    preampDb: within(raw['preampDb'], PREAMP_DB_RANGE, defaultPlayerSettings.preampDb),
    crossfadeSeconds: within(raw['crossfadeSeconds'], CROSSFADE_SECONDS_RANGE, defaultPlayerSettings.crossfadeSeconds),
  };
}

function readStored(): PlayerSettings {
  try {
    return parsePlayerSettings(globalThis.localStorage?.getItem(PLAYER_SETTINGS_KEY) ?? null);
  } catch {
    return { ...defaultPlayerSettings }; // storage refused (a private window)
  }
}

const store = createStore<PlayerSettings>(readStored());

export const playerSettings = {
  getState: store.getState,
  subscribe: store.subscribe,
  /** Changes some settings and remembers them in this browser. */
  update(patch: Partial<PlayerSettings>): void {
    const next = parsePlayerSettings(JSON.stringify({ ...store.getState(), ...patch }));
    store.setState(next);
    try {
      globalThis.localStorage?.setItem(PLAYER_SETTINGS_KEY, JSON.stringify(next));
    } catch {
      // Not remembered, but applied.
    }
  },
};

export function usePlayerSettings<S>(selector: (settings: PlayerSettings) => S): S {
  return useStore(store, selector);
}
