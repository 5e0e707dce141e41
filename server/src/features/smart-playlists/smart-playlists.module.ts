import { bind, defineModule } from '../../modules/module.js';
import { songCataloguePort } from '../library/library.port.js';
import { SmartPlaylistsRepository } from './smart-playlists.repository.js';
import { smartPlaylistFilesPort, userSmartPlaylistsPort, type SmartPlaylistListing } from './smart-playlists.port.js';
import { smartPlaylistsRoutes } from './smart-playlists.routes.js';
import { smartPlaylistPresets, smartPlaylists } from './smart-playlists.schema.js';
import { readNsp, SmartPlaylistsService, type SmartPlaylistSummary } from './smart-playlists.service.js';
import { toNsp } from '@encore/common/smart-playlist.rules';

const listing = ({ row, songCount, durationSeconds }: SmartPlaylistSummary): SmartPlaylistListing => ({
  id: row.id,
  name: row.name,
  comment: row.comment,
  songCount,
  durationSeconds,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A folder file's key: the JSON of [folder, path] (PostgreSQL text holds no NUL, and a path may hold any other character). */
const folderFileKey = (folder: string, path: string) => JSON.stringify([folder, path]);

export const smartPlaylistsModule = defineModule({
  name: 'smart-playlists',
  summary:
    "Each user's smart playlists: rules in Navidrome's .nsp shape (with the sonic analysis as fields) whose songs the database computes live for the viewer; presets, .nsp import and export, M3U8.",
  requires: [songCataloguePort],
  provides: [userSmartPlaylistsPort, smartPlaylistFilesPort],
  tables: [smartPlaylists, smartPlaylistPresets],
  jobs: [],
  settings: [],
  tags: ['smart-playlists'],
  setup({ platform, use }) {
    const repository = new SmartPlaylistsRepository(platform.database.db);
    const service = new SmartPlaylistsService(repository, use(songCataloguePort));
    return {
      ports: [
        bind(userSmartPlaylistsPort, {
          list: async (userId) => (await service.listWithDurations(userId)).map(listing),
          songs: async (id, userId, max) => {
            const { ids, ...summary } = await service.allSongIds(id, userId, max);
            return { playlist: listing(summary), songIds: ids };
          },
        }),
        bind(smartPlaylistFilesPort, {
          importFolderFile: async (ownerId, file) => {
            const nsp = readNsp(file.text, file.fallbackName);
            return repository.upsertFolderFile(ownerId, folderFileKey(file.folder, file.path), {
              name: nsp.name,
              comment: nsp.comment,
              rules: toNsp(nsp.rules),
            });
          },
          keepOnly: async (folder, paths) => {
            const keep = new Set(paths.map((path) => folderFileKey(folder, path)));
            await repository.deleteFolderFiles((await repository.folderFilesOf(folder)).filter((key) => !keep.has(key)));
          },
        }),
      ],
      routes: smartPlaylistsRoutes(service),
      internals: { smartPlaylists: service },
    };
  },
});
