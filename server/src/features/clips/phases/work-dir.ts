import { makeOwnedTempDir, recordChildProcess, sweepOwnedTempDirs } from '../../../platform/fs/owned-temp-dir.js';

export { isRunning } from '../../../platform/fs/process-owner.js';

/**
 * A render's private temp folder names the process rendering in it and the ffmpeg it runs
 * (platform/fs/owned-temp-dir.ts). A process killed mid-render (kill -9, the OOM killer) cannot
 * clean up, and the ffmpeg it started is not killed with it: that orphan keeps encoding into
 * the folder. A later process tells such a folder by its dead owner, stops the orphan and
 * removes the folder: before each render (so a retried render never runs beside its own
 * ghost), and with every process's sweep of temp leftovers, at its start and hourly.
 */
export const WORK_DIR_PURPOSE = 'clip-render';

export function makeWorkDir(root?: string): Promise<string> {
  return makeOwnedTempDir(WORK_DIR_PURPOSE, root);
}

/** Notes the encoding ffmpeg's process id in the folder. */
export function recordEncoder(workDir: string, pid: number | undefined): Promise<void> {
  return recordChildProcess(workDir, pid);
}

/**
 * Removes the render folders under `root` whose owning process is gone, first killing the
 * encoder it left running; and those untouched since `staleBefore` whoever their owner (the
 * process id reused by another program). Returns the folders removed.
 */
export function sweepDeadWorkDirs(options: { staleBefore: Date; root?: string }): Promise<string[]> {
  return sweepOwnedTempDirs({ ...options, purposes: [WORK_DIR_PURPOSE] });
}
