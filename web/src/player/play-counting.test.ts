import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../test/song-fixture';
import { createPlayCounter } from './play-counting';

const song = makeSong(9, { durationSeconds: 600 });
const short = makeSong(4, { durationSeconds: 10 });

function listen(counter: ReturnType<typeof createPlayCounter>, current: typeof song, from: number, to: number, step = 0.25) {
  for (let time = from; time <= to + 1e-9; time += step)
    counter.onState({ current, isPlaying: true, currentTime: time, duration: current.durationSeconds ?? 0 });
}

describe('play counting', () => {
  it('counts a short song after half of it, once', () => {
    const count = vi.fn();
    const counter = createPlayCounter(count);
    listen(counter, short, 0, 4.75);
    expect(count).not.toHaveBeenCalled();
    listen(counter, short, 5, 9);
    expect(count).toHaveBeenCalledTimes(1);
    expect(count).toHaveBeenCalledWith(4);
  });

  it('counts a long song after 4 minutes of listening', () => {
    const count = vi.fn();
    const counter = createPlayCounter(count);
    listen(counter, song, 0, 239.5, 0.5);
    expect(count).not.toHaveBeenCalled();
    listen(counter, song, 240, 241, 0.5);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it('does not count seeking, nor time while paused', () => {
    const count = vi.fn();
    const counter = createPlayCounter(count);
    listen(counter, short, 0, 1);
    counter.onState({ current: short, isPlaying: true, currentTime: 9.5, duration: 10 }); // a seek near the end
    counter.onState({ current: short, isPlaying: false, currentTime: 9.8, duration: 10 });
    expect(counter.listened()).toBeCloseTo(1);
    expect(count).not.toHaveBeenCalled();
  });

  it('counts the song again once it ended and plays anew', () => {
    const count = vi.fn();
    const counter = createPlayCounter(count);
    listen(counter, short, 0, 10);
    counter.onEvent({ type: 'ended', song: short });
    listen(counter, short, 0, 6);
    expect(count).toHaveBeenCalledTimes(2);
  });
});
