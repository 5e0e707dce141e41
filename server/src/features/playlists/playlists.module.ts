import { bind, defineModule } from '../../modules/module.js';
import { songCataloguePort, songFactsPort } from '../library/library.port.js';
import { generatedPlaylistsPort, playlistFilesPort, userPlaylistsPort } from './playlists.port.js';
import { playlistRemovedSongs, playlistSongs, playlists } from './playlists.schema.js';
import { PlaylistsRepository } from './playlists.repository.js';
import { playlistsRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';
import { UserPlaylistsAdapter } from './user-playlists.js';

export const playlistsModule = defineModule({
  name: 'playlists',
  summary: "Each user's playlists of songs from the collection: create, edit, order, export as M3U8, import M3U and M3U8 files.",
  requires: [songCataloguePort, songFactsPort],
  provides: [generatedPlaylistsPort, playlistFilesPort, userPlaylistsPort],
  tables: [playlists, playlistSongs, playlistRemovedSongs],
  jobs: [],
  settings: [],
  tags: ['playlists'],
  setup({ platform, use }) {
    const repository = new PlaylistsRepository(platform.database.db);
    const service = new PlaylistsService(repository, use(songCataloguePort), use(songFactsPort));
    return {
      ports: [
        bind(generatedPlaylistsPort, {
          createGenerated: (ownerId, playlist) => repository.createGenerated(ownerId, playlist),
          freshPlaylistIds: () => repository.freshPlaylistIds(),
          freshPlaylist: (id) => repository.freshPlaylist(id),
          replaceGenerated: (id, songIds) => repository.replaceGenerated(id, songIds),
          onKeptFresh: (listener) => service.onKeptFresh(listener),
        }),
        bind(playlistFilesPort, { importFile: (ownerId, file) => service.importFile(ownerId, file) }),
        bind(userPlaylistsPort, new UserPlaylistsAdapter(service, repository)),
      ],
      routes: playlistsRoutes(service),
      internals: { playlists: service },
    };
  },
});
