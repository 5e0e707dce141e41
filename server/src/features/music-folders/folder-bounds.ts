import fs from 'node:fs/promises';
import { isErrno } from '../../platform/fs/errno.js';
import { isInsideFolder, openFile, type OpenedFile } from '../../platform/fs/opened-file.js';

export const LINK_OUTSIDE = 'A link to a place outside the music folders: not followed (MUSIC_FOLLOW_LINKS=true follows it).';

/** A file of a music folder that may not be read: its real place is outside the folders (or in Encore's data). */
export class OutsideFoldersError extends Error {
  readonly code = 'EOUTSIDE';
  constructor(file: string) {
    super(`${file} leads outside the music folders`);
  }
}

/**
 * Where a music folder's files may really be, links resolved: inside one of the folders, or
 * anywhere (MUSIC_FOLLOW_LINKS) but Encore's own data folder (its secrets, its database). Every
 * read of a folder file goes through here, by its open descriptor, so a file swapped for a link
 * to `DATA_DIR/secrets/jwt-secret` is never served, streamed, transcoded or read as lyrics.
 */
export class FolderBounds {
  constructor(
    private readonly folders: readonly string[],
    private readonly options: { followLinks: boolean; dataDir?: string },
  ) {}

  /** Whether a real path may be read. The folders' own real paths are looked up each time (a share may be mounted since). */
  async allows(realPath: string): Promise<boolean> {
    if (this.options.dataDir !== undefined) {
      const data = await realOrSelf(this.options.dataDir);
      if (isInsideFolder(data, realPath)) return false;
    }
    if (this.options.followLinks) return true;
    for (const folder of this.folders) if (isInsideFolder(await realOrSelf(folder), realPath)) return true;
    return false;
  }

  /** Opens a folder file for reading, refused (OutsideFoldersError) when it really is outside the bounds. */
  async open(file: string): Promise<OpenedFile> {
    const opened = await openFile(file);
    if (await this.allows(opened.realPath)) return opened;
    await opened.handle.close().catch(() => undefined);
    throw new OutsideFoldersError(file);
  }

  /** Reads a small folder file whole (a cover, an `.lrc`); undefined when missing, too large, outside or not a file. */
  async readSmall(file: string, maxBytes: number): Promise<Buffer | undefined> {
    let opened: OpenedFile;
    try {
      opened = await this.open(file);
    } catch {
      return undefined;
    }
    try {
      if (!opened.stats.isFile() || opened.stats.size > maxBytes) return undefined;
      return await opened.handle.readFile();
    } catch {
      return undefined;
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }
}

async function realOrSelf(folder: string): Promise<string> {
  try {
    return await fs.realpath(folder);
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP')) return folder;
    throw error;
  }
}
