/**
 * The thread the sonic analysis and the loudness measurement run on (analysis-pool.ts starts
 * it): essentia's WASM and the meters take seconds of CPU a song, which on the server's own
 * thread would hold every request behind them. On Linux a thread's nice value is its own:
 * this one lowers its own, so a core shared with the server's thread goes to the server first.
 */
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ANALYSIS_PRIORITY, type FromWorker, type ToWorker } from './analysis-messages.js';
import { measureFile } from './measure-file.js';

if (process.platform === 'linux') {
  try {
    os.setPriority(ANALYSIS_PRIORITY); // pid 0: on Linux, the calling thread only
  } catch {
    // Runs at the server's priority: still off its thread.
  }
}

const running = new Map<number, AbortController>();
const port = parentPort;
port?.on('message', (message: ToWorker) => {
  if ('cancel' in message) {
    running.get(message.cancel)?.abort(new Error('The analysis was cancelled'));
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  measureFile(message.request, controller.signal)
    .then(
      (result) => port.postMessage({ id: message.id, result } satisfies FromWorker),
      (error: unknown) =>
        port.postMessage({
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
          cancelled: controller.signal.aborted,
        } satisfies FromWorker),
    )
    .finally(() => running.delete(message.id));
});
