import { defineModule } from '../../modules/module.js';
import { songCataloguePort } from '../library/library.port.js';
import { playlistSongs, playlists } from './playlists.schema.js';
import { PlaylistsRepository } from './playlists.repository.js';
import { playlistsRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';

export const playlistsModule = defineModule({
  name: 'playlists',
  summary: "Each user's playlists of songs from the collection: create, edit, order, export as M3U8.",
  requires: [songCataloguePort],
  provides: [],
  tables: [playlists, playlistSongs],
  jobs: [],
  settings: [],
  tags: ['playlists'],
  setup({ platform, use }) {
    const service = new PlaylistsService(new PlaylistsRepository(platform.database.db), use(songCataloguePort));
    return { routes: playlistsRoutes(service), internals: { playlists: service } };
  },
});
