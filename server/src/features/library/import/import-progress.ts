import type { ImportProgress, ImportReport } from './folder-import.js';

const count = new Intl.NumberFormat('en-US');

/** Bytes per second as people read a copy's speed: `48.2 MB/s` (decimal megabytes, like `cp` tools and disks). */
export function formatRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '0 MB/s';
  return `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`;
}

/** `45 s`, `2 min`, `1 h 5 min`: an estimate, rounded to what is worth reading. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${Math.floor(minutes / 60)} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
}

/** `Importing 1,234 / 5,000 files · 48.2 MB/s · 3 refused · ETA 2 min`. The ETA is left out until there is a rate to go by. */
export function formatProgressLine(progress: ImportProgress, elapsedSeconds: number): string {
  const rate = elapsedSeconds > 0 ? progress.bytesDone / elapsedSeconds : 0;
  const parts = [`Importing ${count.format(progress.filesDone)} / ${count.format(progress.filesTotal)} files`, formatRate(rate)];
  if (progress.refused > 0) parts.push(`${count.format(progress.refused)} refused`);
  if (rate > 0 && progress.filesDone < progress.filesTotal) parts.push(`ETA ${formatDuration((progress.bytesTotal - progress.bytesDone) / rate)}`);
  return parts.join(' · ');
}

/** What the import did, for the terminal: counts, then every refused, failed and duplicate file with its reason. */
export function formatSummary(report: ImportReport, elapsedSeconds: number): string {
  const lines: string[] = [];
  const rate = elapsedSeconds > 0 ? report.importedBytes / elapsedSeconds : 0;
  if (report.interrupted) lines.push('Interrupted: run the same command again to go on (what is imported stays; it is skipped).');
  lines.push(
    `Imported ${count.format(report.imported.length)} ${report.imported.length === 1 ? 'song' : 'songs'} (${(report.importedBytes / 1e6).toFixed(1)} MB) in ${formatDuration(elapsedSeconds)} · ${formatRate(rate)}`,
  );
  lines.push(`Skipped ${count.format(report.skipped.length)} already in the library`);
  lines.push(`Duplicates ${count.format(report.duplicates.length)} (the same bytes as another file here, imported once)`);
  for (const duplicate of report.duplicates) lines.push(`  ${duplicate.path}: the same as ${duplicate.of}`);
  lines.push(`Refused ${count.format(report.refused.length)}`);
  for (const refused of report.refused) lines.push(`  ${refused.path}: ${refused.reason}`);
  if (report.failed.length > 0) {
    lines.push(`Failed ${count.format(report.failed.length)} (not the files' fault: see the log, then run again)`);
    for (const failed of report.failed) lines.push(`  ${failed.path}: ${failed.reason}`);
  }
  return lines.join('\n');
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * The progress line on a terminal, redrawn in place at most five times a second; on anything
 * else (a log file, CI) a plain line every `plainEverySeconds`.
 */
export class ProgressPrinter {
  private lastDrawn = 0;
  private shown = false;
  private latest: ImportProgress | undefined;

  constructor(
    private readonly output: ProgressOutput,
    private readonly started = Date.now(),
    private readonly plainEverySeconds = 10,
    private readonly now: () => number = Date.now,
  ) {}

  update(progress: ImportProgress): void {
    this.latest = progress;
    const now = this.now();
    const every = this.output.isTTY ? 200 : this.plainEverySeconds * 1000;
    if (this.shown && now - this.lastDrawn < every) return;
    this.draw(now);
  }

  /** The last state drawn for good: a terminal's line is kept and the cursor moves past it. */
  finish(): void {
    if (this.latest) this.draw(this.now());
    if (this.output.isTTY && this.shown) this.output.write('\n');
  }

  private draw(now: number): void {
    if (!this.latest) return;
    const line = formatProgressLine(this.latest, (now - this.started) / 1000);
    this.output.write(this.output.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
    this.lastDrawn = now;
    this.shown = true;
  }
}
