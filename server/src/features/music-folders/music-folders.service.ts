import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { ConflictError, ForbiddenError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import {
  NO_MUSIC_FOLDERS,
  ONLY_OWNER_SCANS,
  type MusicFolder,
  type MusicFoldersResponse,
  type ScanProblem,
  type ScanStatus,
  type ScanTrigger,
} from '@encore/common/music-folders.contract';
import type { Accounts } from '../auth/auth.port.js';
import type { FolderSongs } from '../library/library.port.js';
import { extensionOf, isAudioName, PLAYLIST_EXTENSIONS, relativePath } from './folder-files.js';
import { within, type FolderScanner, type ScanScope } from './folder-scanner.js';
import type { MusicFoldersRepository } from './music-folders.repository.js';

export interface MusicFoldersServiceDeps {
  repository: MusicFoldersRepository;
  scanner: FolderScanner;
  folderSongs: FolderSongs;
  accounts: Accounts;
  logger: Logger;
  folders: readonly string[];
  scanIntervalMs: number;
  watch: 'on' | 'poll' | 'off';
  /** How long a scanner's lease lasts without renewal (another process takes over after). */
  leaseMs?: number;
  /** How long changes settle before the watched part is scanned. */
  settleMs?: number;
}

const PROBLEMS_SHOWN = 500;

/**
 * Runs the scans of the music folders: one process at a time (the lease), at start, on changes
 * the watcher sees, every MUSIC_SCAN_MINUTES and when an admin asks. The app serves
 * while it scans.
 */
export class MusicFoldersService {
  private readonly holder = `${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`;
  private timers: NodeJS.Timeout[] = [];
  private watcher: FSWatcher | undefined;
  private holding = false;
  private running: Promise<void> | undefined;
  private wanted: { trigger: ScanTrigger; scopes: ScanScope[] | undefined } | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private pendingScopes: ScanScope[] = [];
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(private readonly deps: MusicFoldersServiceDeps) {}

  get configured(): boolean {
    return this.deps.folders.length > 0;
  }

  /** Starts the lease attempts; the holder scans at once, then watches and rescans. */
  async start(): Promise<void> {
    if (!this.configured) return;
    const leaseMs = this.deps.leaseMs ?? 60_000;
    const attempt = async () => {
      if (this.stopped) return;
      try {
        const now = new Date();
        const won = await this.deps.repository.lease(this.holder, new Date(now.getTime() + leaseMs), now);
        if (won && !this.holding) this.becomeScanner();
        if (!won && this.holding) this.loseScanner();
        if (won) {
          // Scan now asked in another process (or before this one held the lease).
          const status = await this.deps.repository.status();
          if (status.requestedAt !== null && status.state !== 'running') this.request('manual', undefined);
        }
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'music folders: could not renew the scanner lease');
      }
    };
    await attempt();
    this.timers.push(setInterval(() => void attempt(), Math.min(5_000, leaseMs / 3)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const timer of this.timers) clearInterval(timer);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    await this.watcher?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
    if (this.holding) await this.deps.repository.release(this.holder).catch(() => undefined);
  }

  /** Each folder (ids from 1), its songs and whether the last scans could read it. */
  async folders(): Promise<MusicFolder[]> {
    return this.foldersOf(await this.deps.repository.status());
  }

  /**
   * What the music page shows. Where the folders are on the server is for admins: others see
   * each folder by its name (its last part, as Subsonic clients do) and no scan report (its
   * entries are paths on the server).
   */
  async overview(viewerId: number): Promise<MusicFoldersResponse> {
    const status = await this.deps.repository.status();
    const folders = await this.foldersOf(status);
    const admin = await this.isOwner(viewerId);
    if (!admin) {
      const named = folders.map((folder) => ({ ...folder, path: path.basename(folder.path) || folder.path }));
      return { folders: named, scan: publicStatus(status), canScan: false, problems: [], problemCount: 0 };
    }
    const { problems, total } = await this.deps.repository.problems(PROBLEMS_SHOWN);
    const walkProblems = status.problems.filter((problem) => this.deps.folders.includes(problem.folder) || problem.path === '');
    return {
      folders,
      scan: publicStatus(status),
      canScan: this.configured,
      problems: [...walkProblems, ...problems].slice(0, PROBLEMS_SHOWN),
      problemCount: walkProblems.length + total,
    };
  }

  async status(): Promise<ScanStatus> {
    return publicStatus(await this.deps.repository.status());
  }

  /** Scan now: admins only; the lease holder (this process or another) runs it. */
  async scanNow(userId: number): Promise<ScanStatus> {
    if (!(await this.isOwner(userId))) throw new ForbiddenError(ONLY_OWNER_SCANS);
    if (!this.configured) throw new ConflictError(NO_MUSIC_FOLDERS);
    await this.deps.repository.request(new Date());
    if (this.holding) this.request('manual', undefined);
    const status = await this.status();
    return status.state === 'running' ? status : { ...status, state: 'running', trigger: 'manual', total: 0, done: 0 };
  }

  /**
   * A file that is no longer the one scanned (its size or time differ): its directory is scanned
   * again by the scanning process (this one, or the watcher and timer of the one that holds the lease).
   */
  recheck(folder: string, file: string): void {
    if (this.holding) this.request('watch', [{ folder, path: parentOf(file), recursive: false }]);
  }

  /** For tests and the health check: resolves when no scan runs or is waiting. */
  async idle(): Promise<void> {
    while (this.running || this.wanted || this.settleTimer) {
      await (this.running ?? new Promise((resolve) => setTimeout(resolve, 50)));
    }
  }

  private foldersOf(status: Awaited<ReturnType<MusicFoldersRepository['status']>>): Promise<MusicFolder[]> {
    return Promise.all(
      this.deps.folders.map(async (folder, index) => ({
        id: index + 1,
        path: folder,
        songs: await this.deps.repository.songCount(folder),
        available: !status.problems.some((problem) => problem.folder === folder && problem.path === ''),
      })),
    );
  }

  /** The instance's admins run its scans (issue 29: roles). */
  private isOwner(userId: number): Promise<boolean> {
    return this.deps.accounts.isAdmin(userId);
  }

  private becomeScanner(): void {
    this.holding = true;
    this.deps.logger.info({ folders: this.deps.folders }, 'music folders: this process scans');
    this.request('start', undefined);
    if (this.deps.scanIntervalMs > 0) this.timers.push(setInterval(() => this.request('schedule', undefined), this.deps.scanIntervalMs));
    if (this.deps.watch !== 'off') void this.watch();
  }

  private loseScanner(): void {
    this.holding = false;
    this.deps.logger.warn('music folders: another process took over the scans');
    void this.watcher?.close();
    this.watcher = undefined;
  }

  /** Queues a scan; a full scan asked while one waits replaces the waiting one, scopes add up. */
  private request(trigger: ScanTrigger, scopes: ScanScope[] | undefined): void {
    if (this.stopped) return;
    if (!this.wanted) this.wanted = { trigger, scopes };
    else if (scopes === undefined || this.wanted.scopes === undefined)
      this.wanted = { trigger: scopes === undefined ? trigger : this.wanted.trigger, scopes: undefined };
    else this.wanted.scopes.push(...scopes);
    if (!this.running) this.running = this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.stopped) {
      const { trigger, scopes } = this.wanted;
      this.wanted = undefined;
      await this.run(trigger, scopes);
    }
  }

  private async run(trigger: ScanTrigger, scopes: ScanScope[] | undefined): Promise<void> {
    const { repository, logger } = this.deps;
    const started = Date.now();
    await repository.started(trigger, new Date(started));
    try {
      const result = await this.deps.scanner.scan({ ...(scopes ? { scopes: mergeScopes(scopes) } : {}), signal: this.abort.signal });
      // A scoped scan keeps what the last scans found elsewhere; what it looked at again it reports anew.
      const merged = mergeScopes(scopes ?? []);
      const kept = scopes
        ? (await repository.status()).problems.filter((problem) => !merged.some((scope) => scope.folder === problem.folder && within(scope, problem.path)))
        : [];
      const problems = uniqueProblems([...kept, ...result.problems]);
      await repository.finished(result.counts, problems.slice(0, 1000), null, new Date());
      logger.info({ trigger, ms: Date.now() - started, ...result.counts }, 'music folders scanned');
    } catch (error) {
      if (this.stopped) return;
      logger.error({ err: error, trigger }, 'music folders: the scan failed');
      const status = await repository.status();
      await repository
        .finished(
          {
            total: status.total,
            done: status.done,
            added: status.added,
            updated: status.updated,
            moved: status.moved,
            missing: status.missing,
            failed: status.failed,
          },
          status.problems,
          error instanceof Error ? error.message : String(error),
          new Date(),
        )
        .catch(() => undefined);
    }
  }

  private async watch(): Promise<void> {
    const { watch: chokidarWatch } = await import('chokidar');
    if (!this.holding || this.stopped) return;
    const watcher = chokidarWatch([...this.deps.folders], {
      ignoreInitial: true,
      // Links are followed by the scans (each real folder once), not watched: a link back up would loop.
      followSymlinks: false,
      usePolling: this.deps.watch === 'poll',
      interval: 2_000,
      binaryInterval: 5_000,
      // A file being copied in is read once it stops growing.
      awaitWriteFinish: { stabilityThreshold: 1_500, pollInterval: 250 },
      ignored: (file: string) => path.basename(file).startsWith('.'),
      ignorePermissionErrors: true,
    });
    this.watcher = watcher;
    const onFile = (file: string) => this.changed(file, false);
    watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
    watcher.on('addDir', (dir: string) => this.changed(dir, true)).on('unlinkDir', (dir: string) => this.changed(dir, true));
    watcher.on('error', (error: unknown) => this.deps.logger.warn({ err: error }, 'music folders: the watcher reported an error'));
  }

  /** A change under a folder: its directory (or the whole subtree of a folder added or removed) is scanned once changes settle. */
  private changed(file: string, isDirectory: boolean): void {
    const folder = this.deps.folders.find((root) => file === root || file.startsWith(root + path.sep));
    if (!folder) return;
    const name = path.basename(file);
    const relevant = isDirectory || isAudioName(name) || PLAYLIST_EXTENSIONS.has(extensionOf(name)) || extensionOf(name) === 'lrc';
    if (!relevant) return;
    const relative = relativePath(folder, file);
    const scope: ScanScope = isDirectory ? { folder, path: relative, recursive: true } : { folder, path: parentOf(relative), recursive: false };
    if (isDirectory && relative === '') return;
    this.pendingScopes.push(scope);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      const scopes = this.pendingScopes;
      this.pendingScopes = [];
      this.request('watch', scopes);
    }, this.deps.settleMs ?? 1_000);
  }
}

function uniqueProblems(problems: readonly ScanProblem[]): ScanProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.folder}\u0000${problem.path}\u0000${problem.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function parentOf(relative: string): string {
  const at = relative.lastIndexOf('/');
  return at < 0 ? '' : relative.slice(0, at);
}

/** Fewer scopes: duplicates dropped, and anything inside a recursive scope of its folder. */
function mergeScopes(scopes: readonly ScanScope[]): ScanScope[] {
  const unique = new Map<string, ScanScope>();
  for (const scope of scopes) {
    const key = `${scope.folder}\u0000${scope.path}`;
    const existing = unique.get(key);
    if (!existing || (scope.recursive && !existing.recursive)) unique.set(key, scope);
  }
  const all = [...unique.values()];
  return all.filter(
    (scope) =>
      !all.some(
        (other) =>
          other !== scope &&
          other.folder === scope.folder &&
          other.recursive &&
          (other.path === '' || scope.path.startsWith(`${other.path}/`)) &&
          other.path !== scope.path,
      ),
  );
}

function publicStatus(status: Awaited<ReturnType<MusicFoldersRepository['status']>>): ScanStatus {
  const { problems: _problems, requestedAt: _requested, ...rest } = status;
  return rest;
}
