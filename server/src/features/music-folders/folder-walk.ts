import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isErrno } from '../../platform/fs/errno.js';
import { LINK_OUTSIDE } from './folder-bounds.js';
import { extensionOf, isAudioName, PLAYLIST_EXTENSIONS, relativePath } from './folder-files.js';

/** A file found by the walk, with what a stat tells. */
export interface WalkedFile {
  /** Relative to the music folder, `/`-separated. */
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
}

/** One folder's audio and playlist files, and the names of everything in it (covers, `.lrc`). */
export interface WalkedDirectory {
  /** Relative to the music folder ('' for the folder itself). */
  path: string;
  audio: WalkedFile[];
  playlists: WalkedFile[];
  names: string[];
}

export interface WalkProblem {
  path: string;
  reason: string;
  /**
   * The file or folder is there but could not be read now (permissions, an I/O error): what the
   * scans found there before is kept as it was, never taken as deleted.
   */
  unreadable?: true;
}

export const LINK_LOOP = 'A link to a folder that is already being scanned (a loop): not followed.';
export const BROKEN_LINK = 'A link to nothing (its target is missing).';
export const KEPT_AS_THEY_WERE = 'Its songs are kept as they were until it can be read.';

/** Stats at once per folder: enough to keep a network share busy, few enough file handles. */
const STAT_CONCURRENCY = 32;

/** Whether an error of a read says the file or folder is gone (rather than there but unreadable now). */
export function isGone(error: unknown): boolean {
  return isErrno(error, 'ENOENT', 'ENOTDIR');
}

/** The reason a file or folder could not be read, in words. */
export function unreadableReason(error: unknown): string {
  if (isErrno(error, 'EACCES', 'EPERM')) return 'Permission denied: Encore may not read it.';
  if (isErrno(error, 'ELOOP')) return 'Too many levels of links (a loop).';
  if (isErrno(error, 'ENOENT')) return 'It disappeared while the scan ran.';
  return `It could not be read (${error instanceof Error ? error.message : String(error)}).`;
}

/**
 * Walks `start` (a folder below `root`, or root itself) depth first, handing each folder's files
 * to `visit` as soon as that folder is read, so the scan works while the walk goes on. Links
 * are followed; a folder is walked once by its real path, so a link loop is reported and not
 * followed. Hidden entries (a leading dot) are left out. `recursive: false` reads `start` only.
 * A link whose real place `allows` refuses (outside the music folders) is reported, not followed.
 * A folder or file that is there but cannot be read now is reported `unreadable`.
 */
export async function walkMusicFolder(
  root: string,
  start: string,
  visit: (directory: WalkedDirectory) => Promise<void>,
  options: { recursive?: boolean; signal?: AbortSignal; allows?: (realPath: string) => Promise<boolean> } = {},
): Promise<WalkProblem[]> {
  const problems: WalkProblem[] = [];
  const walked = new Set<string>();
  const recursive = options.recursive !== false;

  const walk = async (folder: string): Promise<void> => {
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      const real = await fs.realpath(folder);
      if (walked.has(real)) {
        problems.push({ path: relativePath(root, folder), reason: LINK_LOOP });
        return;
      }
      if (options.allows && !(await options.allows(real))) {
        problems.push({ path: relativePath(root, folder), reason: LINK_OUTSIDE });
        return;
      }
      walked.add(real);
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      const where = relativePath(root, folder);
      if (isGone(error)) problems.push({ path: where, reason: unreadableReason(error) });
      else problems.push({ path: where, reason: `${unreadableReason(error)} ${KEPT_AS_THEY_WERE}`, unreadable: true });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const visible = entries.filter((entry) => !entry.name.startsWith('.'));
    const subfolders: string[] = [];
    const directory: WalkedDirectory = { path: relativePath(root, folder), audio: [], playlists: [], names: visible.map((entry) => entry.name) };
    const wanted = visible.filter((entry) => {
      if (entry.isDirectory()) {
        subfolders.push(path.join(folder, entry.name));
        return false;
      }
      return entry.isSymbolicLink() || (entry.isFile() && (isAudioName(entry.name) || PLAYLIST_EXTENSIONS.has(extensionOf(entry.name))));
    });
    for (let at = 0; at < wanted.length; at += STAT_CONCURRENCY) {
      await Promise.all(
        wanted.slice(at, at + STAT_CONCURRENCY).map(async (entry) => {
          const full = path.join(folder, entry.name);
          try {
            if (entry.isSymbolicLink() && options.allows && !(await options.allows(await fs.realpath(full)))) {
              problems.push({ path: relativePath(root, full), reason: LINK_OUTSIDE });
              return;
            }
            const stats = await fs.stat(full);
            if (stats.isDirectory()) {
              subfolders.push(full);
              return;
            }
            if (!stats.isFile()) return;
            const file: WalkedFile = { path: relativePath(root, full), name: entry.name, size: stats.size, mtimeMs: Math.trunc(stats.mtimeMs) };
            if (isAudioName(entry.name)) directory.audio.push(file);
            else if (PLAYLIST_EXTENSIONS.has(extensionOf(entry.name))) directory.playlists.push(file);
          } catch (error) {
            const where = relativePath(root, full);
            if (isGone(error)) problems.push({ path: where, reason: BROKEN_LINK });
            else problems.push({ path: where, reason: unreadableReason(error), unreadable: true });
          }
        }),
      );
    }
    directory.audio.sort((a, b) => (a.path < b.path ? -1 : 1));
    await visit(directory);
    if (!recursive) return;
    subfolders.sort();
    for (const subfolder of subfolders) await walk(subfolder);
  };

  await walk(start);
  return problems;
}
