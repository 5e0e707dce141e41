import { describe, expect, it } from 'vitest';
import { dbToGain, gainToDb, PEAK_CEILING, songGain, type LoudnessSettings } from './loudness';

const track: LoudnessSettings = { mode: 'track', targetLufs: -14, preampDb: 0 };

describe('loudness normalisation', () => {
  it('brings a song to the target: its ReplayGain plus the target over -18 LUFS', () => {
    // A song at -24 LUFS: ReplayGain +6 dB to -18, so +10 dB to -14.
    expect(songGain({ trackGain: 6, trackPeak: 0.1, albumGain: null, albumPeak: null }, track).gainDb).toBeCloseTo(10);
    // A loud master at -8 LUFS: -10 dB to -18, -6 dB to -14.
    expect(songGain({ trackGain: -10, trackPeak: 1, albumGain: null, albumPeak: null }, track).gainDb).toBeCloseTo(-6);
    // Two songs 10 dB apart end at the same loudness.
    const quiet = songGain({ trackGain: 6, trackPeak: 0.1, albumGain: null, albumPeak: null }, track);
    const loud = songGain({ trackGain: -4, trackPeak: 0.3, albumGain: null, albumPeak: null }, track);
    expect(quiet.gainDb - loud.gainDb).toBeCloseTo(10);
  });

  it('adds the pre-amp and follows the target', () => {
    expect(songGain({ trackGain: -2, trackPeak: 0.2, albumGain: null, albumPeak: null }, { mode: 'track', targetLufs: -18, preampDb: 1.5 }).gainDb).toBeCloseTo(
      -0.5,
    );
  });

  it('never raises a song so far that its peak clips', () => {
    const gain = songGain({ trackGain: 12, trackPeak: 0.5, albumGain: null, albumPeak: null }, track);
    expect(gain.peakLimited).toBe(true);
    expect(gain.gain * 0.5).toBeCloseTo(PEAK_CEILING);
    expect(gain.needsLimiter).toBe(false);
  });

  it('asks for the limiter only when a raised song has no known peak', () => {
    expect(songGain({ trackGain: 3, trackPeak: null, albumGain: null, albumPeak: null }, track).needsLimiter).toBe(true);
    expect(songGain({ trackGain: -8, trackPeak: null, albumGain: null, albumPeak: null }, track).needsLimiter).toBe(false);
  });

  it('uses the album values in album mode, and the track values where the album has none', () => {
    const rg = { trackGain: 2, trackPeak: 0.2, albumGain: -1, albumPeak: 0.4 };
    expect(songGain(rg, { ...track, mode: 'album' }).gainDb).toBeCloseTo(3);
    expect(songGain({ ...rg, albumGain: null, albumPeak: null }, { ...track, mode: 'album' }).gainDb).toBeCloseTo(6);
  });

  it('leaves the song alone when off, and gives an unmeasured song the pre-amp only', () => {
    expect(songGain({ trackGain: 6, trackPeak: 0.1, albumGain: null, albumPeak: null }, { ...track, mode: 'off' })).toMatchObject({ gain: 1, gainDb: 0 });
    expect(songGain(null, { ...track, preampDb: -3 }).gainDb).toBeCloseTo(-3);
    expect(songGain({ trackGain: Number.NaN, trackPeak: null, albumGain: null, albumPeak: null }, track).gain).toBe(1);
  });

  it('converts between dB and linear gain', () => {
    expect(dbToGain(20)).toBeCloseTo(10);
    expect(gainToDb(0.5)).toBeCloseTo(-6.02, 2);
  });
});
