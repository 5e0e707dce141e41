/**
 * Loudness normalisation (issue 30): the gain that brings a song to the listener's target
 * loudness, from the song's ReplayGain 2.0 values (dB to a -18 LUFS reference, and the sample
 * peak as a linear fraction of full scale), never so much that its peak would clip.
 */

/** ReplayGain 2.0 measures to this loudness: a gain of 0 dB leaves a song at -18 LUFS. */
export const REPLAYGAIN_REFERENCE_LUFS = -18;

export const NORMALISATION_MODES = ['off', 'track', 'album'] as const;
export type NormalisationMode = (typeof NORMALISATION_MODES)[number];

/** What the server answers in `replayGain` on `GET /api/files/{id}`; null where a value is unknown. */
export interface ReplayGain {
  trackGain: number | null;
  trackPeak: number | null;
  albumGain: number | null;
  albumPeak: number | null;
}

export interface LoudnessSettings {
  mode: NormalisationMode;
  /** The loudness songs are brought to (LUFS); -14 by default, as the streaming services play. */
  targetLufs: number;
  /** Added to every normalised song (dB), for a listener who wants it all louder or quieter. */
  preampDb: number;
}

/** The output never goes above this (linear): a hair under full scale, so resampling cannot clip either. */
export const PEAK_CEILING = 0.989; // -0.1 dBFS

export interface SongGain {
  /** The linear gain to apply. */
  gain: number;
  /** The same in dB (0 when off). */
  gainDb: number;
  /** The gain was lowered so the song's peak stays under the ceiling. */
  peakLimited: boolean;
  /**
   * The song's peak is unknown and the gain raises it: a limiter must catch what would clip.
   * With a known peak the gain itself is limited, so no limiter is needed.
   */
  needsLimiter: boolean;
}

export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}

export function gainToDb(gain: number): number {
  return 20 * Math.log10(gain);
}

const unity: SongGain = { gain: 1, gainDb: 0, peakLimited: false, needsLimiter: false };

/**
 * The gain for one song. Album mode uses the album's values and falls back to the track's
 * where the album has none; a song with no measurement at all gets only the pre-amp.
 */
export function songGain(replayGain: ReplayGain | null | undefined, settings: LoudnessSettings): SongGain {
  if (settings.mode === 'off') return unity;
  const album = settings.mode === 'album' && replayGain?.albumGain != null;
  const measured = album ? replayGain.albumGain : (replayGain?.trackGain ?? null);
  const peak = album ? replayGain.albumPeak : (replayGain?.trackPeak ?? null);
  const wanted = (measured === null ? 0 : measured + (settings.targetLufs - REPLAYGAIN_REFERENCE_LUFS)) + settings.preampDb;
  if (!Number.isFinite(wanted)) return unity;
  if (peak !== null && peak > 0 && Number.isFinite(peak)) {
    const ceilingDb = gainToDb(PEAK_CEILING / peak);
    if (wanted > ceilingDb) return { gain: dbToGain(ceilingDb), gainDb: ceilingDb, peakLimited: true, needsLimiter: false };
    return { gain: dbToGain(wanted), gainDb: wanted, peakLimited: false, needsLimiter: false };
  }
  return { gain: dbToGain(wanted), gainDb: wanted, peakLimited: false, needsLimiter: wanted > 0 };
}
