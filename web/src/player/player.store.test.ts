import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../test/song-fixture';
import { hasNext, hasPrevious, type PlayerEvent, type PlayerMedia } from './player-state';
import { createPlayer } from './player.store';

/** An HTMLAudioElement-like object: it records what the player did and fires events on demand. */
class FakeMedia extends EventTarget implements PlayerMedia {
  src = '';
  currentTime = 0;
  duration = Number.NaN;
  volume = 1;
  paused = true;
  blockAutoplay = false;
  /** The browser cannot decode what it was given. */
  unplayable = false;
  loads = 0;

  play(): Promise<void> {
    if (this.blockAutoplay) return Promise.reject(new DOMException('blocked', 'NotAllowedError'));
    if (this.unplayable) return Promise.reject(new DOMException('no supported source', 'NotSupportedError'));
    this.paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  }
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }
  load(): void {
    this.loads += 1;
  }
  removeAttribute(): void {
    this.src = '';
  }
  override addEventListener(type: string, listener: () => void): void {
    super.addEventListener(type, listener);
  }
  /** The browser has read the file's header. */
  metadata(duration: number) {
    this.duration = duration;
    this.dispatchEvent(new Event('loadedmetadata'));
  }
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

const songs = [makeSong(1), makeSong(2), makeSong(3)];

function setup() {
  const media = new FakeMedia();
  const fetchPlayUrl = vi.fn((id: number) => Promise.resolve(`/api/stream/${id}?sig=x`));
  const onUrlError = vi.fn();
  const player = createPlayer({ createMedia: () => media, fetchPlayUrl, onUrlError });
  const events: PlayerEvent[] = [];
  player.onEvent((event) => events.push(event));
  return { media, player, fetchPlayUrl, onUrlError, events };
}

/** Lets the play-URL promise and the play() promise settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('player store', () => {
  it('starts empty at volume 0.8', () => {
    const { player } = setup();
    expect(player.getState()).toMatchObject({ current: null, index: -1, volume: 0.8, isPlaying: false, ready: false });
  });

  it('fetches the play URL, keeps the controls off until metadata, then autoplays', async () => {
    const { media, player, fetchPlayUrl } = setup();
    player.playQueue(songs, 1);
    expect(player.getState()).toMatchObject({ current: songs[1], loading: true, ready: false, duration: 180 });
    await settle();
    expect(fetchPlayUrl).toHaveBeenCalledWith(2, expect.any(AbortSignal));
    expect(media.src).toBe('/api/stream/2?sig=x');
    expect(media.volume).toBe(0.8);

    player.toggle(); // controls are disabled until the metadata is in
    expect(media.paused).toBe(true);

    media.metadata(200.5);
    await settle();
    expect(player.getState()).toMatchObject({ ready: true, loading: false, isPlaying: true, duration: 200.5 });
  });

  it('stays paused when the browser blocks autoplay, and logs it only', async () => {
    const { media, player } = setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    media.blockAutoplay = true;
    player.playQueue(songs, 0);
    await settle();
    media.metadata(100);
    await settle();
    expect(player.getState()).toMatchObject({ ready: true, isPlaying: false });
    expect(logged).toHaveBeenCalled();
  });

  it('wraps next and previous around the list', async () => {
    const { player } = setup();
    player.playQueue(songs, 2);
    expect(hasNext(player.getState())).toBe(true);
    player.next();
    expect(player.getState().current?.id).toBe(1);
    player.previous();
    expect(player.getState().current?.id).toBe(3);
    player.previous();
    expect(player.getState().current?.id).toBe(2);
    await settle();
  });

  it('goes on into the next and previous pages of a paged list, wrapping round the whole list', async () => {
    const { player } = setup();
    // Seven songs in pages of three: the song is started from the middle page (4, 5, 6).
    const all = Array.from({ length: 7 }, (_, index) => makeSong(index + 1));
    const load = vi.fn((offset: number, limit: number) => Promise.resolve(all.slice(offset, offset + limit)));
    player.playQueue(all.slice(3, 6), 2, { pages: { offset: 3, total: 7, limit: 3, load } });
    expect(player.getState().current?.id).toBe(6);
    player.next();
    await vi.waitFor(() => expect(player.getState().current?.id).toBe(7));
    expect(load).toHaveBeenLastCalledWith(6, 3);
    expect(player.getState().queue.map((song) => song.id)).toEqual([4, 5, 6, 7]);
    // Past the end of the whole list: round to its first song.
    player.next();
    await vi.waitFor(() => expect(player.getState().current?.id).toBe(1));
    player.previous();
    await vi.waitFor(() => expect(player.getState().current?.id).toBe(7));
    player.previous();
    expect(player.getState().current?.id).toBe(6);
    await settle();
  });

  it('offers next and previous for a page of one song of a longer list', () => {
    const { player } = setup();
    player.playQueue([songs[0]!], 0, { pages: { offset: 6, total: 7, limit: 3, load: () => Promise.resolve([]) } });
    expect(hasNext(player.getState())).toBe(true);
    expect(hasPrevious(player.getState())).toBe(true);
  });

  it('offers no next or previous for a list of one', () => {
    const { player } = setup();
    player.playQueue([songs[0]!], 0);
    expect(hasNext(player.getState())).toBe(false);
    expect(hasPrevious(player.getState())).toBe(false);
  });

  it('moves to the next song when one ends', async () => {
    const { media, player, events } = setup();
    player.playQueue(songs, 0);
    await settle();
    media.metadata(100);
    await settle();
    media.fire('ended');
    expect(player.getState().current?.id).toBe(2);
    expect(events).toContainEqual({ type: 'ended', song: songs[0] });
  });

  it('stops at 0 at the end of a single song, and finishes a list that does not wrap', async () => {
    const single = setup();
    single.player.playQueue([songs[0]!], 0);
    await settle();
    single.media.metadata(100);
    await settle();
    single.media.currentTime = 100;
    single.media.paused = true;
    single.media.fire('ended');
    expect(single.player.getState()).toMatchObject({ current: songs[0], isPlaying: false, currentTime: 0 });
    expect(single.media.currentTime).toBe(0);

    const playlist = setup();
    playlist.player.playQueue(songs, 1, { wrap: false, source: 'playlist:7' });
    expect(hasNext(playlist.player.getState())).toBe(true);
    expect(hasPrevious(playlist.player.getState())).toBe(true);
    playlist.player.next();
    expect(hasNext(playlist.player.getState())).toBe(false);
    await settle();
    playlist.media.metadata(100);
    await settle();
    playlist.media.fire('ended');
    expect(playlist.player.getState().current?.id).toBe(3);
    expect(playlist.events).toContainEqual({ type: 'finished', source: 'playlist:7' });
  });

  it('reports a song that cannot be played, but not a blocked autoplay', async () => {
    const { media, player, events } = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    player.playQueue(songs, 0, { source: 'library' });
    await settle();
    media.blockAutoplay = true;
    media.metadata(100);
    await settle();
    expect(player.getState()).toMatchObject({ isPlaying: false, ready: true, current: songs[0] });
    expect(events.filter((event) => event.type === 'error')).toEqual([]);

    media.blockAutoplay = false;
    await expect(player.play()).resolves.toBe(true);
    expect(player.getState().isPlaying).toBe(true);

    player.next();
    await settle();
    media.paused = true;
    media.unplayable = true;
    media.metadata(100);
    await settle();
    expect(events).toContainEqual({ type: 'error', song: songs[1], source: 'library' });
    // The music list stays on the song that failed (its errors are only reported).
    expect(player.getState().current).toEqual(songs[1]);
    await expect(player.play()).resolves.toBe(false);
  });

  it('passes over songs that cannot be played in a playlist, and says so when none can', async () => {
    const { media, player, events, fetchPlayUrl, onUrlError } = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchPlayUrl.mockRejectedValueOnce(new Error('gone'));
    player.playQueue(songs, 0, { wrap: false, skipUnplayable: true, source: 'playlist:7' });
    await settle();
    expect(onUrlError).not.toHaveBeenCalled();
    expect(events).toContainEqual({ type: 'error', song: songs[0], source: 'playlist:7' });
    expect(player.getState().current).toEqual(songs[1]);
    media.metadata(100);
    await settle();
    expect(player.getState()).toMatchObject({ current: songs[1], isPlaying: true });

    media.fire('ended');
    await settle();
    media.fire('error');
    expect(events).toContainEqual({ type: 'error', song: songs[2], source: 'playlist:7' });
    expect(events.at(-1)).toEqual({ type: 'finished', source: 'playlist:7' });

    const broken = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    broken.fetchPlayUrl.mockRejectedValue(new Error('gone'));
    broken.player.playQueue(songs, 0, { wrap: false, skipUnplayable: true, source: 'playlist:8' });
    for (let i = 0; i < 4; i += 1) await settle();
    expect(broken.fetchPlayUrl).toHaveBeenCalledTimes(3);
    expect(broken.events.filter((event) => event.type === 'error')).toHaveLength(3);
    expect(broken.events.at(-1)).toEqual({ type: 'unplayable', source: 'playlist:8' });
  });

  it('reports a stream that fails before its metadata loads', async () => {
    const { media, player, events } = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    player.playQueue(songs, 1, { source: 'library' });
    await settle();
    media.fire('error');
    expect(player.getState()).toMatchObject({ loading: false, isPlaying: false, current: songs[1] });
    expect(events).toContainEqual({ type: 'error', song: songs[1], source: 'library' });
  });

  it('follows a new order of the list it plays, from the song playing now', async () => {
    const { player } = setup();
    player.playQueue(songs, 0, { wrap: false, source: 'playlist:7' });
    const reordered = [songs[2]!, songs[0]!, songs[1]!];
    player.updateQueue(reordered, 'playlist:8');
    expect(player.getState().queue).toEqual(songs);
    player.updateQueue(reordered, 'playlist:7');
    expect(player.getState()).toMatchObject({ queue: reordered, index: 1, current: songs[0] });
    player.next();
    expect(player.getState().current).toEqual(songs[1]);
    player.updateQueue([songs[0]!, songs[2]!], 'playlist:7');
    expect(player.getState()).toMatchObject({ queue: reordered, index: 2, current: songs[1] });
  });

  it('closes when the song already selected is chosen again', async () => {
    const { media, player, events } = setup();
    player.selectSong(songs, songs[1]!);
    expect(player.getState().index).toBe(1);
    await settle();
    player.selectSong(songs, songs[1]!);
    expect(player.getState()).toMatchObject({ current: null, queue: [], index: -1, volume: 0.8 });
    expect(media.src).toBe('');
    expect(events).toContainEqual({ type: 'closed' });
  });

  it('ignores a play URL that arrives after another song was chosen', async () => {
    const { media, player, fetchPlayUrl } = setup();
    let answerFirst: (url: string) => void = () => {};
    fetchPlayUrl.mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)));
    player.playQueue(songs, 0);
    player.next();
    await settle();
    answerFirst('/api/stream/1?late');
    await settle();
    expect(media.src).toBe('/api/stream/2?sig=x');
    expect(player.getState().current?.id).toBe(2);
  });

  it('reports a failed play URL and leaves the controls off', async () => {
    const { player, fetchPlayUrl, onUrlError } = setup();
    fetchPlayUrl.mockRejectedValueOnce(new Error('nope'));
    player.playQueue(songs, 0);
    await settle();
    expect(onUrlError).toHaveBeenCalled();
    expect(player.getState()).toMatchObject({ loading: false, ready: false, current: songs[0] });
  });

  it('seeks within the song and sets the volume within 0..1', async () => {
    const { media, player } = setup();
    player.playQueue(songs, 0);
    await settle();
    media.metadata(100);
    await settle();
    player.seek(42.5);
    expect(media.currentTime).toBe(42.5);
    player.seekBy(-50);
    expect(player.getState().currentTime).toBe(0);
    player.seek(500);
    expect(player.getState().currentTime).toBe(100);
    player.setVolume(0.35);
    expect(media.volume).toBe(0.35);
    player.setVolume(3);
    expect(player.getState().volume).toBe(1);
  });

  it('starts at a chosen position (a click on a song page seek bar)', async () => {
    const { media, player } = setup();
    player.playQueue([songs[0]!], 0, { startAt: 30 });
    await settle();
    media.metadata(100);
    await settle();
    expect(media.currentTime).toBe(30);
    expect(player.getState()).toMatchObject({ currentTime: 30, isPlaying: true });
  });

  it('fetches a fresh URL once when the stream fails mid-song, resuming where it was', async () => {
    const { media, player, fetchPlayUrl } = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    player.playQueue(songs, 0);
    await settle();
    media.metadata(100);
    await settle();
    media.currentTime = 61;
    media.fire('timeupdate');
    media.fire('error');
    await settle();
    expect(fetchPlayUrl).toHaveBeenCalledTimes(2);
    media.metadata(100);
    await settle();
    expect(media.currentTime).toBe(61);
    media.fire('error');
    await settle();
    expect(fetchPlayUrl).toHaveBeenCalledTimes(2);
  });

  it('adds songs next and last, and starts them when nothing plays', async () => {
    const { player } = setup();
    player.addToQueue([songs[2]!]);
    expect(player.getState()).toMatchObject({ current: songs[2], index: 0 });
    await settle();
    player.addToQueue([songs[0]!]);
    player.addNext([songs[1]!]);
    expect(player.getState().queue.map((song) => song.id)).toEqual([3, 2, 1]);
    expect(player.getState().current?.id).toBe(3);
  });

  it('moves and removes songs of the queue; removing the one playing plays the next', async () => {
    const { player, fetchPlayUrl } = setup();
    player.playQueue(songs, 0, { wrap: false });
    await settle();
    player.moveInQueue(2, 1);
    expect(player.getState()).toMatchObject({ index: 0 });
    expect(player.getState().queue.map((song) => song.id)).toEqual([1, 3, 2]);
    player.removeFromQueue(0);
    expect(player.getState()).toMatchObject({ index: 0, current: songs[2] });
    await settle();
    expect(fetchPlayUrl).toHaveBeenLastCalledWith(3, expect.any(AbortSignal));
    player.clearQueue();
    expect(player.getState().queue.map((song) => song.id)).toEqual([3]);
    player.removeFromQueue(0);
    expect(player.getState().current).toBeNull();
  });

  it('plays the song again at its end under repeat one', async () => {
    const { media, player } = setup();
    player.playQueue(songs, 0);
    await settle();
    media.metadata(100);
    await settle();
    player.setRepeat('one');
    media.currentTime = 100;
    media.fire('ended');
    await settle();
    expect(player.getState().current?.id).toBe(1);
    expect(media.currentTime).toBe(0);
  });

  it("starts with repeat off, keeps the listener's repeat from one list to the next, and stops at the end of a list not repeated", async () => {
    const { media, player, events } = setup();
    expect(player.getState().repeat).toBe('off');
    player.playQueue(songs, 2);
    expect(player.getState().repeat).toBe('off');
    await settle();
    media.metadata(100);
    await settle();
    // The last song of the music list ends: repeat is off, so the list stops there.
    media.fire('ended');
    expect(player.getState()).toMatchObject({ current: songs[2], isPlaying: false });
    expect(events).toContainEqual({ type: 'finished', source: null });
    // The buttons still go round the music list (SPEC 4).
    player.next();
    expect(player.getState().current?.id).toBe(1);
    player.setRepeat('all');
    player.playQueue(songs, 2, { wrap: false, source: 'playlist:7' });
    expect(player.getState().repeat).toBe('all');
    // A playlist the listener repeats goes round, by the buttons and at its end.
    expect(hasNext(player.getState())).toBe(true);
    await settle();
    media.metadata(100);
    await settle();
    media.fire('ended');
    expect(player.getState().current?.id).toBe(1);
    player.close();
    expect(player.getState().repeat).toBe('all');
    await settle();
  });

  it('puts a paged list back in its order and its place in the whole list when shuffle goes off', async () => {
    const { player } = setup();
    const all = Array.from({ length: 9 }, (_, index) => makeSong(index + 1));
    const load = vi.fn((offset: number, limit: number) => Promise.resolve(all.slice(offset, offset + limit)));
    player.playQueue(all.slice(3, 6), 1, { pages: { offset: 3, total: 9, limit: 3, load } });
    expect(player.getState().current?.id).toBe(5);
    player.setShuffle(true);
    expect(player.getState().queue[0]?.id).toBe(5);
    player.setShuffle(false);
    expect(player.getState().queue.map((song) => song.id)).toEqual([4, 5, 6]);
    expect(player.getState()).toMatchObject({ index: 1, queueOffset: 3, queueTotal: 9, shuffle: false, current: all[4] });
    // Next and previous go on into the neighbouring pages as before shuffling.
    player.next();
    player.next();
    await vi.waitFor(() => expect(player.getState().current?.id).toBe(7));
    expect(load).toHaveBeenLastCalledWith(6, 3);
    await settle();
  });

  it('shuffles from the song playing and puts the order back', async () => {
    const { player } = setup();
    const many = Array.from({ length: 8 }, (_, index) => makeSong(index + 1));
    player.playQueue(many, 3);
    player.setShuffle(true);
    const shuffledIds = player.getState().queue.map((song) => song.id);
    expect(shuffledIds[0]).toBe(4);
    expect([...shuffledIds].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(player.getState()).toMatchObject({ index: 0, shuffle: true });
    player.setShuffle(false);
    expect(player.getState().queue.map((song) => song.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(player.getState()).toMatchObject({ index: 3, shuffle: false });
    await settle();
  });

  it('restores a saved queue paused at its position, and never over a song playing', async () => {
    const { media, player } = setup();
    player.restoreQueue(songs, 1, 42);
    expect(player.getState()).toMatchObject({ current: songs[1], source: 'queue' });
    await settle();
    media.metadata(100);
    await settle();
    expect(player.getState()).toMatchObject({ ready: true, isPlaying: false, currentTime: 42 });
    expect(media.currentTime).toBe(42);
    player.restoreQueue([songs[0]!], 0, 0);
    expect(player.getState().current).toEqual(songs[1]);
  });
});
