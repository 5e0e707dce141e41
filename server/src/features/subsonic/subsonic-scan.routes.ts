import path from 'node:path';
import type { MusicFolders, ScanStatus } from '../music-folders/music-folders.port.js';
import type { SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import type { SubsonicObject } from './subsonic-response.js';

/**
 * The music folders and their scans: getMusicFolders (the uploads as folder 0, then each music
 * folder with its id), getScanStatus and startScan (the instance's owner only: anyone else gets
 * error 50 with the music page's words).
 */
export function scanEndpoints(folders: MusicFolders): SubsonicEndpoint[] {
  /** While a scan runs, `count` is the files it has dealt with; otherwise the songs the folders hold. */
  const scanStatus = async (status: ScanStatus): Promise<SubsonicObject> => {
    const scanning = status.state === 'running';
    const count = scanning ? status.done : (await folders.folders()).reduce((total, folder) => total + folder.songs, 0);
    return { scanStatus: { scanning, count } };
  };
  return [
    {
      name: 'getMusicFolders',
      handle: async () => ({
        musicFolders: {
          musicFolder: [{ id: 0, name: 'Uploads' }, ...(await folders.folders()).map((folder) => ({ id: folder.id, name: folderName(folder.path) }))],
        },
      }),
    },
    { name: 'getScanStatus', handle: async () => scanStatus(await folders.status()) },
    // ForbiddenError (not the owner) is error 50; no folders configured is error 0 with its reason.
    { name: 'startScan', handle: async ({ user }) => scanStatus(await folders.scanNow(user.id)) },
  ];
}

/** A folder's last path part, as getMusicFolders names it (the whole path for a root). */
function folderName(folderPath: string): string {
  return path.basename(folderPath) || folderPath;
}
