import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScanProblem } from '@encore/common/music-folders.contract';
import type { Logger } from '../../platform/logger.js';
import type { Accounts } from '../auth/auth.port.js';
import type { PlaylistFiles } from '../playlists/playlists.port.js';
import type { SmartPlaylistFiles } from '../smart-playlists/smart-playlists.port.js';
import { absolutePath } from './folder-files.js';
import type { WalkedFile } from './folder-walk.js';
import type { MusicFoldersRepository } from './music-folders.repository.js';

/** Playlist files larger than this are not playlists anyone wrote (100,000 entries is ~10 MB). */
const MAX_PLAYLIST_BYTES = 10 * 1024 * 1024;
const NAMES_IN_REPORT = 5;

export const NO_ACCOUNT_YET = 'Playlists of music folders are made for the instance’s first account: they are imported once it exists.';
export const NOT_A_PLAYLIST = 'Not a playlist (no M3U entries could be read).';

export function entriesNotFound(labels: readonly string[]): string {
  const shown = labels.slice(0, NAMES_IN_REPORT).join(', ');
  const more = labels.length > NAMES_IN_REPORT ? ` and ${labels.length - NAMES_IN_REPORT} more` : '';
  return `${labels.length} ${labels.length === 1 ? 'entry matches' : 'entries match'} no song: ${shown}${more}.`;
}

export interface FolderPlaylistsDeps {
  repository: MusicFoldersRepository;
  playlistFiles: PlaylistFiles;
  smartPlaylistFiles: SmartPlaylistFiles;
  accounts: Accounts;
  logger: Logger;
  folders: readonly string[];
}

/**
 * The .m3u/.m3u8 files of the music folders as playlists of the instance's owner (its first
 * account): entries named by path (relative to the playlist, or absolute within a music folder)
 * are matched to the folders' files, the others as Import M3U8 matches them. A playlist file
 * changed since is imported again over its playlist; one its owner deleted is not made again.
 */
export class FolderPlaylists {
  constructor(private readonly deps: FolderPlaylistsDeps) {}

  /** `complete`: `files` are every playlist file of the folder (see FolderScannerDeps.onPlaylists). */
  async sync(folder: string, files: readonly WalkedFile[], { complete }: { complete: boolean }): Promise<ScanProblem[]> {
    const problems: ScanProblem[] = [];
    const owner = await this.deps.accounts.account();
    if (!owner) return files.map((file) => ({ folder, path: file.path, reason: NO_ACCOUNT_YET }));
    const smart = files.filter((file) => path.extname(file.name).toLowerCase() === '.nsp');
    problems.push(...(await this.syncSmart(owner.id, folder, smart, complete)));
    const known = new Map((await this.deps.repository.playlistsOf(folder)).map((row) => [row.path, row]));
    for (const file of files) {
      if (smart.includes(file)) continue;
      const row = known.get(file.path);
      if (row && (row.playlistId === null || (row.size === file.size && row.mtimeMs === file.mtimeMs))) {
        if (row.missing.length > 0) problems.push({ folder, path: file.path, reason: entriesNotFound(row.missing) });
        continue;
      }
      try {
        const text = await readText(absolutePath(folder, file.path));
        const result = await this.deps.playlistFiles.importFile(owner.id, {
          playlistId: row?.playlistId ?? undefined,
          name: path.basename(file.name, path.extname(file.name)).slice(0, 100) || file.name.slice(0, 100),
          description: `From the music folder: ${file.path}`.slice(0, 1000),
          text,
          resolve: (locations) => this.resolve(folder, file.path, locations),
        });
        await this.deps.repository.savePlaylist({
          folder,
          path: file.path,
          mtimeMs: file.mtimeMs,
          size: file.size,
          playlistId: result.playlistId ?? null,
          missing: result.notFound.slice(0, 1000),
        });
        if (result.playlistId === undefined && row === undefined) problems.push({ folder, path: file.path, reason: NOT_A_PLAYLIST });
        if (result.notFound.length > 0) problems.push({ folder, path: file.path, reason: entriesNotFound(result.notFound) });
      } catch (error) {
        this.deps.logger.warn({ err: error, folder, file: file.path }, 'music folders: a playlist file could not be imported');
        problems.push({ folder, path: file.path, reason: `It could not be read (${error instanceof Error ? error.message : String(error)}).` });
      }
    }
    return problems;
  }

  /**
   * The .nsp files as the owner's smart playlists, read again at each scan (a few hundred
   * bytes each; the file is the truth, as in Navidrome); those whose files are gone are deleted,
   * after a `complete` scan only (a watcher's scan of one part, or a part unreadable now, does not
   * say a file elsewhere is gone).
   */
  private async syncSmart(ownerId: number, folder: string, files: readonly WalkedFile[], complete: boolean): Promise<ScanProblem[]> {
    const problems: ScanProblem[] = [];
    const kept: string[] = [];
    for (const file of files) {
      try {
        const text = await readText(absolutePath(folder, file.path));
        const fallbackName = path.basename(file.name, path.extname(file.name)).slice(0, 100) || file.name.slice(0, 100);
        await this.deps.smartPlaylistFiles.importFolderFile(ownerId, { folder, path: file.path, fallbackName, text });
        kept.push(file.path);
      } catch (error) {
        this.deps.logger.warn({ err: error, folder, file: file.path }, 'music folders: a smart playlist file could not be imported');
        problems.push({ folder, path: file.path, reason: `Not a smart playlist (${error instanceof Error ? error.message : String(error)}).` });
      }
    }
    if (complete) await this.deps.smartPlaylistFiles.keepOnly(folder, kept);
    return problems;
  }

  /** The songs of the folders' files each location names: relative to the playlist, absolute, or a file: URL. */
  private async resolve(folder: string, playlistPath: string, locations: readonly string[]): Promise<(number | undefined)[]> {
    const base = path.dirname(absolutePath(folder, playlistPath));
    const places = locations.map((location) => this.place(base, location));
    const wanted = places.filter((place): place is { folder: string; path: string } => place !== undefined);
    const found = await this.deps.repository.songsAt(wanted);
    return places.map((place) => (place ? found.get(`${place.folder}\u0000${place.path}`) : undefined));
  }

  private place(base: string, location: string): { folder: string; path: string } | undefined {
    let file: string;
    if (/^file:\/\//i.test(location)) {
      try {
        file = fileURLToPath(location);
      } catch {
        return undefined;
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) || /^[a-z]:[\\/]/i.test(location)) {
      // Another machine's URL or a Windows drive: only the name and tags can tell.
      return undefined;
    } else {
      file = path.resolve(base, location.replace(/\\/g, '/'));
    }
    const root = this.deps.folders.find((candidate) => file.startsWith(candidate + path.sep));
    return root ? { folder: root, path: path.relative(root, file).split(path.sep).join('/') } : undefined;
  }
}

async function readText(file: string): Promise<string> {
  const stats = await fs.stat(file);
  if (stats.size > MAX_PLAYLIST_BYTES) throw new Error(`larger than ${MAX_PLAYLIST_BYTES / 1024 / 1024} MB`);
  return fs.readFile(file, 'utf8');
}
