import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A regular file found under the folder (through links too), with its size. */
export interface FoundFile {
  path: string;
  size: number;
}

/** Something under the folder that cannot be walked: a link loop, a broken link, a folder or file it may not read. */
export interface WalkProblem {
  path: string;
  reason: string;
}

export const LINK_LOOP = 'A link to a folder that is already being imported (a loop): not followed.';
export const BROKEN_LINK = 'A link to nothing (its target is missing).';

/**
 * Every regular file under `root`, depth first, in name order, following links. Hidden files
 * and folders (a leading dot: `.DS_Store`, `.git`) are left out. A folder is walked once by its
 * real path, so a link back to an ancestor or a second link to the same folder is reported,
 * not followed; a folder or link that cannot be read is reported and the walk goes on.
 */
export async function walkFolder(root: string): Promise<{ files: FoundFile[]; problems: WalkProblem[] }> {
  const files: FoundFile[] = [];
  const problems: WalkProblem[] = [];
  const walked = new Set<string>();

  const visit = async (folder: string): Promise<void> => {
    let real: string;
    let entries: Dirent[];
    try {
      real = await fs.realpath(folder);
      if (walked.has(real)) {
        problems.push({ path: folder, reason: LINK_LOOP });
        return;
      }
      walked.add(real);
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: folder, reason: unreadable(error) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        await visit(full);
        continue;
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue; // sockets, FIFOs, devices
      try {
        const stats = await fs.stat(full);
        if (stats.isDirectory()) await visit(full);
        else if (stats.isFile()) files.push({ path: full, size: stats.size });
      } catch (error) {
        problems.push({ path: full, reason: isCode(error, 'ENOENT') ? BROKEN_LINK : unreadable(error) });
      }
    }
  };

  await visit(root);
  return { files, problems };
}

/** The reason a file or folder could not be read, in words. */
export function unreadable(error: unknown): string {
  if (isCode(error, 'EACCES') || isCode(error, 'EPERM')) return 'Permission denied: Encore may not read it.';
  if (isCode(error, 'ELOOP')) return 'Too many levels of links (a loop).';
  if (isCode(error, 'ENOENT')) return 'It disappeared while the import ran.';
  return `It could not be read (${error instanceof Error ? error.message : String(error)}).`;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
