import type { Writable } from 'node:stream';

/**
 * Calls `onStalled` once when the client of `destination` (a response being streamed) has read
 * nothing for `idleMs`: the response's buffer stays full, no 'drain' comes. Backpressure tells
 * it apart from a source that is slow to produce (then the buffer is not full, and the clock
 * does not run). Returns the stop; it stops by itself when the destination closes.
 */
export function watchStalledReader(destination: Writable, idleMs: number, onStalled: () => void): () => void {
  let readSince = Date.now();
  const read = () => {
    readSince = Date.now();
  };
  // Checked a few times per period, so a stall is seen within about idleMs and a quarter.
  const timer = setInterval(
    () => {
      if (!destination.writableNeedDrain) return read();
      if (Date.now() - readSince < idleMs) return;
      stop();
      onStalled();
    },
    Math.max(10, Math.min(1000, idleMs / 4)),
  );
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    destination.off('drain', read);
    destination.off('close', stop);
  };
  destination.on('drain', read);
  destination.once('close', stop);
  return stop;
}
