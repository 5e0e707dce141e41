import type { SongListEntry } from '@encore/common/library.contract';
import type { Store } from '../lib/create-store';
import type { AudioOutput, DeckOutput } from './audio-output';
import { decodeEdges, type SongEdges } from './song-edges';
import type { ReplayGain } from './loudness';
import type { PlayerSettings } from './player-settings';
import type { PlayerMedia, PlayerState, ResolvedSong } from './player-state';
import type { Deck } from './player.store';

/**
 * How one song becomes the next (issue 30) on the player's two decks:
 * - the next song is loaded into the idle deck some seconds before the end;
 * - with a crossfade, the idle deck starts `crossfadeSeconds` before the end and the two are
 *   faded (equal power) on the audio clock;
 * - without one, the join is gapless: the last seconds of the song playing and the first of
 *   the next are decoded into buffers, the song hands over to its tail buffer a few seconds
 *   before the end (under a 25 ms crossfade, where a few ms of timing error cannot be heard), and
 *   the next song's head buffer is started on the audio clock at the exact sample the tail
 *   ends. The next song's element starts muted at the join and takes over from the head buffer
 *   two seconds in, so seeking, Media Session and the element's own clock work as ever;
 * - when the buffers are not ready (a song too long to decode, a slow network), the next
 *   element is started at the estimated end instead, a few ms of gap at worst.
 * Nothing is started on `ended`: that event only confirms what was scheduled.
 */
export interface DeckJoinHost {
  output: AudioOutput;
  store: Store<PlayerState>;
  settings(): PlayerSettings;
  activeDeck(): Deck;
  idleDeck(): Deck;
  followingIndex(): number | null;
  resolve(song: SongListEntry, signal: AbortSignal): Promise<{ resolved: ResolvedSong; replayGain: ReplayGain | null }>;
  setSource(media: PlayerMedia, url: string): void;
  stopDeck(deck: Deck): void;
  route(deck: Deck): void;
  applyGain(deck: Deck): void;
  handOver(index: number): void;
}

export interface DeckJoin {
  onTick(): void;
  /** Stops what was scheduled (a seek, a pause); the prepared next song stays ready. */
  cancel(): void;
  /** Forgets the prepared song too (another song was chosen, the player closed). */
  reset(): void;
  /** The store played the prepared deck itself (next pressed while it waited): its edges go with it. */
  adoptPrepared(deck: Deck): void;
  onPreparedReady(deck: Deck): void;
  onPreparedFailed(deck: Deck): void;
  onIdleEnded(deck: Deck): void;
  /** The song playing ended while a join was scheduled: finish it now. True when it did. */
  takeOverAtEnd(): boolean;
  onQueueChanged(): void;
  onSettingsChanged(): void;
}

/** The next song is loaded this long before the end. */
const PREPARE_SECONDS = 30;
/** Decoded edges are kept for songs up to this long (a full decode costs ~10 MB a minute while it runs). */
const MAX_DECODE_SECONDS = 20 * 60;
const MAX_DECODE_BYTES = 150 * 1024 * 1024;
/** Seconds of each song's start and end kept decoded. */
export const EDGE_SECONDS = 12;
/** The hand-over from the element to the tail buffer is scheduled this far ahead on the clock. */
const SCHEDULE_AHEAD = 0.15;
const HANDOVER_FADE = 0.025;
/** The next song's element takes over from its head buffer this long after the join. */
const HEAD_TO_ELEMENT_AFTER = 2;
/** The fallback join starts the next element this long before the estimated end (its start latency). */
const PLAIN_LEAD = 0.6;

interface Prepared {
  index: number;
  song: SongListEntry;
  deck: Deck;
  edges: SongEdges | null;
  controller: AbortController;
}

type Phase = 'scheduled' | 'joined';

interface Scheduled {
  kind: 'gapless' | 'crossfade' | 'plain';
  phase: Phase;
  from: Deck;
  to: Deck;
  index: number;
  timers: ReturnType<typeof setTimeout>[];
  sources: AudioBufferSourceNode[];
}

function decodable(song: SongListEntry): boolean {
  return (song.durationSeconds ?? 0) <= MAX_DECODE_SECONDS && song.size <= MAX_DECODE_BYTES;
}

export function createDeckJoin(host: DeckJoinHost): DeckJoin {
  let prepared: Prepared | null = null;
  /** The decoded edges of the song playing (its tail is what a gapless join needs). */
  let current: { songId: number; edges: SongEdges | null; pending: boolean } | null = null;
  let scheduled: Scheduled | null = null;

  const context = () => host.output.audioContext;
  const outputOf = (deck: Deck): DeckOutput | null => host.output.deck(deck.media as HTMLMediaElement);

  function setGain(param: AudioParam, value: number, at: number): void {
    param.cancelScheduledValues(at);
    param.setValueAtTime(value, at);
  }

  function resetGains(deck: Deck): void {
    const out = outputOf(deck);
    const ctx = context();
    if (!out || !ctx) return;
    const now = ctx.currentTime;
    setGain(out.elementGain.gain, 1, now);
    setGain(out.bufferGain.gain, 0, now);
    setGain(out.fade.gain, 1, now);
  }

  function unprepare(): void {
    if (!prepared) return;
    prepared.controller.abort();
    if (host.activeDeck() !== prepared.deck) host.stopDeck(prepared.deck);
    prepared = null;
  }

  async function fetchBytes(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`The song could not be fetched (${response.status})`);
    return response.arrayBuffer();
  }

  /** The tail of the song playing, decoded from its stream (fetched again: it is in the HTTP cache when it can be). */
  async function decodeCurrentTail(deck: Deck, signal: AbortSignal): Promise<void> {
    const song = deck.song;
    const ctx = context();
    if (!song || !ctx || !deck.resolved) return;
    if (current?.songId === song.id) return;
    current = { songId: song.id, edges: null, pending: true };
    if (!decodable(song)) return;
    try {
      const bytes = deck.resolved.bytes ? await deck.resolved.bytes() : await fetchBytes(deck.resolved.url, signal);
      const edges = await decodeEdges(ctx, bytes, EDGE_SECONDS);
      if (current?.songId === song.id) current = { songId: song.id, edges, pending: false };
    } catch {
      if (current?.songId === song.id) current.pending = false;
    }
  }

  async function prepare(index: number): Promise<void> {
    const state = host.store.getState();
    const song = state.queue[index];
    if (!song) return;
    const controller = new AbortController();
    const deck = host.idleDeck();
    host.stopDeck(deck);
    prepared = { index, song, deck, edges: null, controller };
    const mine = prepared;
    const { signal } = controller;
    const active = host.activeDeck();
    void decodeCurrentTail(active, signal);
    try {
      const { resolved, replayGain } = await host.resolve(song, signal);
      if (prepared !== mine) return resolved.release?.();
      let playable = resolved;
      const ctx = context();
      if (ctx && decodable(song)) {
        // One download for both: the element plays the bytes the edges are decoded from.
        try {
          const bytes = resolved.bytes ? await resolved.bytes() : await fetchBytes(resolved.url, signal);
          if (prepared !== mine) return resolved.release?.();
          const blob = new Blob([bytes]);
          const objectUrl = URL.createObjectURL(blob);
          resolved.release?.();
          playable = { url: objectUrl, offline: resolved.offline ?? false, release: () => URL.revokeObjectURL(objectUrl), bytes: () => blob.arrayBuffer() };
          mine.edges = await decodeEdges(ctx, bytes, EDGE_SECONDS);
        } catch {
          mine.edges = null;
        }
        if (prepared !== mine) return playable.release?.();
      }
      Object.assign(deck, { song, resolved: playable, replayGain, ready: false });
      host.route(deck);
      resetGains(deck);
      host.applyGain(deck);
      (deck.media as HTMLMediaElement).preload = 'auto';
      host.setSource(deck.media, playable.url);
    } catch {
      if (prepared === mine) prepared = null;
    }
  }

  function clearSchedule(): Scheduled | null {
    const was = scheduled;
    if (!was) return null;
    scheduled = null;
    for (const timer of was.timers) clearTimeout(timer);
    for (const source of was.sources) {
      try {
        source.stop();
      } catch {
        // never started
      }
    }
    return was;
  }

  /** Starts the next element (muted or faded in as the schedule says) and makes it the one playing. */
  function join(plan: Scheduled): void {
    if (scheduled !== plan || plan.phase === 'joined') return;
    plan.phase = 'joined';
    const to = plan.to;
    to.media.currentTime = 0;
    void to.media.play().catch(() => undefined);
    if (current?.songId !== to.song?.id) current = to.song ? { songId: to.song.id, edges: prepared?.edges ?? null, pending: false } : null;
    prepared = null;
    host.handOver(plan.index);
  }

  function scheduleGapless(from: Deck, to: Deck, edges: { tail: SongEdges; head: SongEdges }, index: number): boolean {
    const ctx = context();
    const fromOut = outputOf(from);
    const toOut = outputOf(to);
    if (!ctx || !fromOut || !toOut) return false;
    const tail = edges.tail.tail;
    const head = edges.head.head;
    const tailStart = edges.tail.duration - tail.duration;
    const at = ctx.currentTime + SCHEDULE_AHEAD;
    const offset = from.media.currentTime + SCHEDULE_AHEAD - tailStart;
    if (offset < 0 || offset > tail.duration - 0.5) return false;
    const end = at + (tail.duration - offset);

    const tailSource = ctx.createBufferSource();
    tailSource.buffer = tail;
    tailSource.connect(fromOut.bufferGain);
    tailSource.start(at, offset);
    setGain(fromOut.elementGain.gain, 1, at);
    fromOut.elementGain.gain.linearRampToValueAtTime(0, at + HANDOVER_FADE);
    setGain(fromOut.bufferGain.gain, 0, at);
    fromOut.bufferGain.gain.linearRampToValueAtTime(1, at + HANDOVER_FADE);

    const headSource = ctx.createBufferSource();
    headSource.buffer = head;
    headSource.connect(toOut.bufferGain);
    setGain(toOut.fade.gain, 1, ctx.currentTime);
    setGain(toOut.elementGain.gain, 0, ctx.currentTime);
    setGain(toOut.bufferGain.gain, 1, ctx.currentTime);
    headSource.start(end);

    // The head buffer hands over to the element (which started muted at the join).
    const over = end + Math.min(HEAD_TO_ELEMENT_AFTER, Math.max(0.2, head.duration - 0.5));
    setGain(toOut.elementGain.gain, 0, over);
    toOut.elementGain.gain.linearRampToValueAtTime(1, over + HANDOVER_FADE);
    toOut.bufferGain.gain.setValueAtTime(1, over);
    toOut.bufferGain.gain.linearRampToValueAtTime(0, over + HANDOVER_FADE);

    const plan: Scheduled = { kind: 'gapless', phase: 'scheduled', from, to, index, timers: [], sources: [tailSource, headSource] };
    scheduled = plan;
    const ms = (clock: number) => Math.max(0, (clock - ctx.currentTime) * 1000);
    plan.timers.push(setTimeout(() => join(plan), ms(end)));
    plan.timers.push(
      setTimeout(
        () => {
          if (scheduled !== plan) return;
          scheduled = null;
          headSource.onended = null;
          host.stopDeck(from);
          resetGains(from);
        },
        ms(over + HANDOVER_FADE) + 100,
      ),
    );
    return true;
  }

  function scheduleCrossfade(from: Deck, to: Deck, seconds: number, remaining: number, index: number): boolean {
    const ctx = context();
    const fromOut = outputOf(from);
    const toOut = outputOf(to);
    if (!ctx || !fromOut || !toOut) return false;
    // A little ahead at least, so the fades never start in the past of the audio clock.
    const start = ctx.currentTime + Math.max(0.05, remaining - seconds);
    const steps = 64;
    const fadeIn = new Float32Array(steps);
    const fadeOut = new Float32Array(steps);
    for (let i = 0; i < steps; i += 1) {
      const x = i / (steps - 1);
      fadeIn[i] = Math.sin((x * Math.PI) / 2);
      fadeOut[i] = Math.cos((x * Math.PI) / 2);
    }
    setGain(toOut.elementGain.gain, 1, ctx.currentTime);
    setGain(toOut.bufferGain.gain, 0, ctx.currentTime);
    setGain(toOut.fade.gain, 0, ctx.currentTime);
    toOut.fade.gain.setValueCurveAtTime(fadeIn, start, seconds);
    fromOut.fade.gain.cancelScheduledValues(ctx.currentTime);
    fromOut.fade.gain.setValueCurveAtTime(fadeOut, start, seconds);
    const plan: Scheduled = { kind: 'crossfade', phase: 'scheduled', from, to, index, timers: [], sources: [] };
    scheduled = plan;
    plan.timers.push(setTimeout(() => join(plan), Math.max(0, (start - ctx.currentTime) * 1000)));
    plan.timers.push(
      setTimeout(
        () => {
          if (scheduled !== plan) return;
          scheduled = null;
          host.stopDeck(from);
          resetGains(from);
        },
        (start - ctx.currentTime + seconds) * 1000 + 150,
      ),
    );
    return true;
  }

  function schedulePlain(from: Deck, to: Deck, remaining: number, index: number): void {
    resetGains(to);
    const plan: Scheduled = { kind: 'plain', phase: 'scheduled', from, to, index, timers: [], sources: [] };
    scheduled = plan;
    // The element's own start takes a few ms: it is asked a little before the end.
    plan.timers.push(setTimeout(() => join(plan), Math.max(0, (remaining - 0.02) * 1000)));
    // The song that ended lets its element go (its 'ended' may have come before the join).
    plan.timers.push(
      setTimeout(
        () => {
          if (scheduled !== plan) return;
          scheduled = null;
          host.stopDeck(from);
        },
        (remaining + 1) * 1000,
      ),
    );
  }

  function planJoin(): void {
    const state = host.store.getState();
    const from = host.activeDeck();
    if (!prepared || !prepared.deck.ready || scheduled || !state.isPlaying) return;
    const duration = Number.isFinite(from.media.duration) ? from.media.duration : state.duration;
    const remaining = duration - from.media.currentTime;
    if (!(remaining > 0)) return;
    const to = prepared.deck;
    host.route(to);
    const crossfade = Math.min(host.settings().crossfadeSeconds, duration / 2, (to.media.duration || 0) / 2);
    if (crossfade >= 0.5) {
      if (remaining > crossfade + 0.4) return;
      try {
        if (scheduleCrossfade(from, to, Math.max(0.1, Math.min(crossfade, remaining - 0.05)), remaining, prepared.index)) return;
      } catch (error) {
        // An automation the browser refuses: join without the fade.
        console.error('Crossfade could not be scheduled', error);
        clearSchedule();
        resetGains(from);
      }
      schedulePlain(from, to, remaining, prepared.index);
      return;
    }
    const tail = current?.songId === from.song?.id ? current?.edges : null;
    if (tail && prepared.edges && remaining <= tail.tail.duration - 1 && remaining > 1) {
      if (scheduleGapless(from, to, { tail, head: prepared.edges }, prepared.index)) return;
    }
    const waitingForEdges = (current?.pending ?? false) || (prepared.edges === null && decodable(prepared.song) && !prepared.deck.ready);
    if (remaining <= PLAIN_LEAD && (!waitingForEdges || remaining <= 0.3)) schedulePlain(from, to, remaining, prepared.index);
  }

  return {
    onTick() {
      const state = host.store.getState();
      if (!state.ready || !state.isPlaying || !context()) return;
      if (scheduled) return;
      const next = host.followingIndex();
      const song = next === null ? null : state.queue[next];
      if (!song || next === null) {
        unprepare();
        return;
      }
      if (prepared && prepared.song.id !== song.id) unprepare();
      const active = host.activeDeck();
      const duration = Number.isFinite(active.media.duration) ? active.media.duration : state.duration;
      const remaining = duration - active.media.currentTime;
      if (!prepared && remaining <= PREPARE_SECONDS) void prepare(next);
      planJoin();
    },

    reset() {
      this.cancel();
      unprepare();
    },

    adoptPrepared(deck) {
      if (prepared?.deck !== deck) return;
      current = { songId: prepared.song.id, edges: prepared.edges, pending: false };
      prepared = null;
    },

    cancel() {
      const was = clearSchedule();
      if (!was) return;
      if (was.phase === 'joined') {
        host.stopDeck(was.from);
        resetGains(was.from);
        resetGains(was.to);
        return;
      }
      resetGains(was.from);
      resetGains(was.to);
      if (!was.to.media.paused) was.to.media.pause();
      was.to.media.currentTime = 0;
    },

    onPreparedReady(deck) {
      if (prepared?.deck === deck) planJoin();
    },

    onPreparedFailed(deck) {
      if (prepared?.deck !== deck) return;
      unprepare();
    },

    onIdleEnded(deck) {
      if (scheduled?.from === deck && scheduled.phase === 'joined' && scheduled.kind !== 'gapless') {
        clearSchedule();
        host.stopDeck(deck);
        resetGains(deck);
      }
    },

    takeOverAtEnd() {
      const plan = scheduled;
      if (!plan || plan.phase !== 'scheduled') return false;
      join(plan);
      return true;
    },

    onQueueChanged() {
      const next = host.followingIndex();
      const song = next === null ? null : host.store.getState().queue[next];
      if (prepared && (!song || prepared.song.id !== song.id)) {
        if (scheduled?.phase === 'scheduled') this.cancel();
        unprepare();
      } else if (prepared && next !== null) {
        prepared.index = next;
        if (scheduled) scheduled.index = next;
      }
    },

    onSettingsChanged() {
      if (scheduled?.phase === 'scheduled') this.cancel();
    },
  };
}
