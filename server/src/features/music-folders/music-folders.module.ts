import { bind, defineModule } from '../../modules/module.js';
import { absolutePath } from './folder-files.js';
import { FolderBounds } from './folder-bounds.js';
import { accountsPort } from '../auth/auth.port.js';
import { folderSongsPort } from '../library/library.port.js';
import { playlistFilesPort } from '../playlists/playlists.port.js';
import { smartPlaylistFilesPort } from '../smart-playlists/smart-playlists.port.js';
import { FolderPlaylists } from './folder-playlists.js';
import { FolderScanner } from './folder-scanner.js';
import { musicFoldersPort } from './music-folders.port.js';
import { musicFoldersRoutes } from './music-folders.routes.js';
import { MusicFoldersRepository } from './music-folders.repository.js';
import { musicFolderFiles, musicFolderPlaylists, musicFolderScan } from './music-folders.schema.js';
import { MusicFoldersService } from './music-folders.service.js';

/** Keys of the folders' files in storage: resolved to the files in place, never written. */
export const MUSIC_KEY_PREFIX = 'music/';

export const musicFoldersModule = defineModule({
  name: 'music-folders',
  summary: 'Music folders read in place (MUSIC_FOLDERS): scanned at start, watched, rescanned; their songs join the collection.',
  requires: [folderSongsPort, accountsPort, playlistFilesPort, smartPlaylistFilesPort],
  provides: [musicFoldersPort],
  tables: [musicFolderFiles, musicFolderScan, musicFolderPlaylists],
  jobs: [],
  settings: ['MUSIC_FOLDERS', 'MUSIC_SCAN_MINUTES', 'MUSIC_WATCH', 'MUSIC_MISSING_GRACE_DAYS', 'MUSIC_FOLLOW_LINKS'],
  tags: ['music-folders'],
  setup({ platform, logger, use }) {
    const { config, database, storage } = platform;
    const settings = config.musicFolders;
    const repository = new MusicFoldersRepository(database.db);
    const folderSongs = use(folderSongsPort);
    const bounds = new FolderBounds(settings.paths, { followLinks: settings.followLinks, dataDir: config.dataDir });
    // The songs' files, read where they are: streams, downloads, analysis, transcription and clips
    // read them through storage like any other song. Each open is checked by its descriptor: the
    // file must really be inside the folders (links resolved) and be the file that was scanned.
    storage.mount(MUSIC_KEY_PREFIX, async (key) => {
      const file = await repository.locate(key);
      if (!file || !settings.paths.includes(file.folder)) return undefined;
      const accept = async ({ realPath, stats }: { realPath: string; stats: { size: number; mtimeMs: number } }): Promise<boolean> => {
        if (!(await bounds.allows(realPath))) {
          logger.warn({ folder: file.folder, path: file.path }, 'music folders: a file leads outside the music folders; not read');
          return false;
        }
        if (stats.size === file.size && Math.trunc(stats.mtimeMs) === file.mtimeMs) return true;
        // Changed since it was scanned: read again by a scan before it is served.
        service.recheck(file.folder, file.path);
        return false;
      };
      return { path: absolutePath(file.folder, file.path), contentType: file.contentType, accept };
    });
    const playlists = new FolderPlaylists({
      repository,
      playlistFiles: use(playlistFilesPort),
      smartPlaylistFiles: use(smartPlaylistFilesPort),
      accounts: use(accountsPort),
      logger,
      folders: settings.paths,
    });
    const scanner = new FolderScanner({
      repository,
      folderSongs,
      storage,
      logger,
      folders: settings.paths,
      bounds,
      missingGraceMs: settings.missingGraceMs,
      ffmpeg: platform.ffmpeg,
      onProgress: (counts) => repository.progress(counts),
      onPlaylists: (folder, files, options) => playlists.sync(folder, files, options),
    });
    const service = new MusicFoldersService({
      repository,
      scanner,
      folderSongs,
      accounts: use(accountsPort),
      logger,
      folders: settings.paths,
      scanIntervalMs: settings.scanIntervalMs,
      watch: settings.watch,
    });
    return {
      ports: [bind(musicFoldersPort, { folders: () => service.folders(), status: () => service.status(), scanNow: (userId) => service.scanNow(userId) })],
      routes: musicFoldersRoutes(service),
      health: async () => {
        if (!service.configured) return {};
        const scan = await service.status();
        return {
          musicFolders: {
            ...scan,
            text: scan.state === 'running' ? `Scanning: ${scan.done.toLocaleString('en')} of ${scan.total.toLocaleString('en')} files` : null,
          },
        };
      },
      // In the background: the app serves while the folders are scanned.
      start: () => service.start(),
      stop: () => service.stop(),
      internals: { service, scanner, repository },
    };
  },
});
