import { describe, expect, it } from 'vitest';
import { makeSong } from '../test/song-fixture';
import { append, clearUpcoming, insertNext, move, nextRepeatMode, removeAt, reshuffleRound, shuffleFromCurrent, unshuffle } from './play-queue';

const songs = [1, 2, 3, 4, 5].map((id) => makeSong(id));
const ids = (queue: readonly { id: number }[]) => queue.map((song) => song.id);

/** A repeatable "random" sequence for the shuffle tests. */
function seeded(seed = 7) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('play queue', () => {
  it('inserts after the song playing, or appends', () => {
    const at = { queue: songs.slice(0, 3), index: 1 };
    expect(ids(insertNext(at, [songs[4]!]).queue)).toEqual([1, 2, 5, 3]);
    expect(ids(append(at, [songs[4]!]).queue)).toEqual([1, 2, 3, 5]);
    expect(ids(insertNext({ queue: [], index: -1 }, [songs[0]!]).queue)).toEqual([1]);
  });

  it('moves a song and keeps the one playing current', () => {
    const at = { queue: songs, index: 2 };
    expect(move(at, 0, 4)).toMatchObject({ index: 1 });
    expect(ids(move(at, 0, 4).queue)).toEqual([2, 3, 4, 5, 1]);
    expect(move(at, 4, 0)).toMatchObject({ index: 3 });
    expect(move(at, 2, 0)).toMatchObject({ index: 0 });
    expect(move(at, 3, 4)).toMatchObject({ index: 2 });
    expect(move(at, 9, 0)).toBe(at);
  });

  it('removes songs before, at and after the current one', () => {
    const at = { queue: songs, index: 2 };
    expect(removeAt(at, 0)).toMatchObject({ index: 1 });
    expect(removeAt(at, 4)).toMatchObject({ index: 2 });
    const atCurrent = removeAt(at, 2);
    expect(ids(atCurrent.queue)).toEqual([1, 2, 4, 5]);
    expect(atCurrent.index).toBe(2);
    expect(removeAt({ queue: [songs[0]!], index: 0 }, 0)).toEqual({ queue: [], index: -1 });
    expect(removeAt({ queue: songs, index: 4 }, 4).index).toBe(3);
  });

  it('clears all but the song playing', () => {
    expect(ids(clearUpcoming({ queue: songs, index: 3 }).queue)).toEqual([4]);
    expect(clearUpcoming({ queue: songs, index: -1 })).toEqual({ queue: [], index: -1 });
  });

  it('shuffles with the current song first and every other song once', () => {
    const shuffled = shuffleFromCurrent({ queue: songs, index: 2 }, seeded());
    expect(shuffled.index).toBe(0);
    expect(shuffled.queue[0]?.id).toBe(3);
    expect([...ids(shuffled.queue)].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('starts a new round without the last song first, and never repeats within a round', () => {
    for (let seed = 1; seed < 50; seed += 1) {
      const round = reshuffleRound(songs, songs[4]!, seeded(seed));
      expect(round[0]?.id).not.toBe(5);
      expect(new Set(ids(round)).size).toBe(5);
    }
  });

  it('puts the order back when shuffle goes off, with songs added meanwhile at the end', () => {
    const shuffled = shuffleFromCurrent({ queue: songs.slice(0, 4), index: 1 }, seeded());
    const withAdded = append(shuffled, [songs[4]!]);
    const back = unshuffle(withAdded, [1, 2, 3, 4]);
    expect(ids(back.queue)).toEqual([1, 2, 3, 4, 5]);
    expect(back.index).toBe(1);
  });

  it('cycles repeat off, all, one', () => {
    expect(nextRepeatMode('off')).toBe('all');
    expect(nextRepeatMode('all')).toBe('one');
    expect(nextRepeatMode('one')).toBe('off');
  });
});
