/**
 * The player's sound path through Web Audio (issue 30):
 *
 *   deck element ─▶ elementGain ─┐
 *   gapless buffer ▶ bufferGain ─┴▶ level (normalisation) ▶ fade (crossfade) ─┐
 *   (a second deck alike) ─────────────────────────────────────────────────────┴▶ volume ─┬▶ direct ──────────────▶ out
 *                                                                                         └▶ limiter ▶ limited ──▶ out
 *
 * Each deck (a media element) has its own gains, so the next song can be prepared, faded in or
 * joined gaplessly while the current one ends. The limiter (a DynamicsCompressor set as a brick
 * wall) is switched in only while a song's gain could clip and its peak is unknown.
 */

/** The part of a media element the graph needs. */
export type RoutableMedia = HTMLMediaElement;

export interface DeckOutput {
  readonly elementGain: GainNode;
  readonly bufferGain: GainNode;
  readonly level: GainNode;
  readonly fade: GainNode;
}

const LIMITER = { threshold: -1, knee: 0, ratio: 20, attack: 0.002, release: 0.15 } as const;
/** Short ramps so a changed gain never clicks. */
const SMOOTHING_SECONDS = 0.03;

export class AudioOutput {
  private context: AudioContext | null = null;
  private volume!: GainNode;
  private direct!: GainNode;
  private limited!: GainNode;
  private readonly decks = new Map<RoutableMedia, DeckOutput>();
  private volumeValue = 1;
  private limiterOn = false;

  /** The audio clock, or null before the graph exists. */
  get audioContext(): AudioContext | null {
    return this.context;
  }

  /**
   * Creates (or wakes) the audio context. Called from what the user did (a click, a key, a
   * media key), where browsers let a context start; false when the graph cannot run.
   */
  wake(): boolean {
    const Context = globalThis.AudioContext as typeof AudioContext | undefined;
    if (!Context) return false;
    if (!this.context) {
      try {
        this.context = new Context({ latencyHint: 'playback' });
      } catch {
        return false;
      }
      this.build(this.context);
    }
    if (this.context.state === 'suspended') void this.context.resume().catch(() => undefined);
    return true;
  }

  /** Whether songs can go through the graph now (a running context). */
  get running(): boolean {
    return this.context?.state === 'running';
  }

  private build(context: AudioContext): void {
    this.volume = context.createGain();
    this.volume.gain.value = this.volumeValue;
    this.direct = context.createGain();
    this.limited = context.createGain();
    const limiter = context.createDynamicsCompressor();
    limiter.threshold.value = LIMITER.threshold;
    limiter.knee.value = LIMITER.knee;
    limiter.ratio.value = LIMITER.ratio;
    limiter.attack.value = LIMITER.attack;
    limiter.release.value = LIMITER.release;
    this.direct.gain.value = this.limiterOn ? 0 : 1;
    this.limited.gain.value = this.limiterOn ? 1 : 0;
    this.volume.connect(this.direct).connect(context.destination);
    this.volume.connect(limiter).connect(this.limited).connect(context.destination);
  }

  /**
   * The deck's gains, routing the element through the graph on first use (an element is
   * routed once and for good). Null when the graph is not running: the element then plays
   * straight to the speakers, without normalisation.
   */
  deck(media: RoutableMedia): DeckOutput | null {
    const known = this.decks.get(media);
    if (known) return known;
    const context = this.context;
    if (!context || context.state !== 'running') return null;
    let source: MediaElementAudioSourceNode;
    try {
      source = context.createMediaElementSource(media);
    } catch {
      return null;
    }
    const deck: DeckOutput = {
      elementGain: context.createGain(),
      bufferGain: context.createGain(),
      level: context.createGain(),
      fade: context.createGain(),
    };
    deck.bufferGain.gain.value = 0;
    source.connect(deck.elementGain).connect(deck.level);
    deck.bufferGain.connect(deck.level);
    deck.level.connect(deck.fade).connect(this.volume);
    // The element plays at full scale into the graph; the volume is the graph's.
    media.volume = 1;
    this.decks.set(media, deck);
    return deck;
  }

  isRouted(media: RoutableMedia): boolean {
    return this.decks.has(media);
  }

  /** The listener's volume, 0..1. */
  setVolume(volume: number): void {
    this.volumeValue = volume;
    if (this.context) this.volume.gain.setTargetAtTime(volume, this.context.currentTime, SMOOTHING_SECONDS / 3);
  }

  /** Sets a deck's normalisation gain (smoothly). */
  setLevel(media: RoutableMedia, gain: number): void {
    const deck = this.decks.get(media);
    if (!deck || !this.context) return;
    deck.level.gain.setTargetAtTime(gain, this.context.currentTime, SMOOTHING_SECONDS / 3);
  }

  /** The brick-wall limiter in or out of the path. */
  setLimiter(on: boolean): void {
    if (on === this.limiterOn) return;
    this.limiterOn = on;
    if (!this.context) return;
    const now = this.context.currentTime;
    this.direct.gain.setTargetAtTime(on ? 0 : 1, now, SMOOTHING_SECONDS / 3);
    this.limited.gain.setTargetAtTime(on ? 1 : 0, now, SMOOTHING_SECONDS / 3);
  }
}
