import type { MusicFolder, ScanStatus } from '@encore/common/music-folders.contract';
import { definePort } from '../../modules/module.js';

export type { MusicFolder, ScanStatus };

/** The music folders as other APIs show them (the Subsonic API's folders and scans). */
export interface MusicFolders {
  /** Each folder of MUSIC_FOLDERS (ids from 1, in order), its songs and whether it can be read. */
  folders(): Promise<MusicFolder[]>;
  /** The last (or running) scan. */
  status(): Promise<ScanStatus>;
  /** Starts a scan: admins only (a forbidden error otherwise); answers the scan as it stands. */
  scanNow(userId: number): Promise<ScanStatus>;
}

export const musicFoldersPort = definePort<MusicFolders>(
  'music-folders',
  'The music folders with their song counts, the scan status, and a scan started by an admin.',
);
