import { bind, defineModule } from '../../modules/module.js';
import { songCataloguePort } from '../library/library.port.js';
import { bookmarksPort } from './bookmarks.port.js';
import { BookmarksRepository } from './bookmarks.repository.js';
import { bookmarksRoutes } from './bookmarks.routes.js';
import { bookmarks } from './bookmarks.schema.js';
import { BookmarksService } from './bookmarks.service.js';

export const bookmarksModule = defineModule({
  name: 'bookmarks',
  summary:
    "Bookmarks: where each user stopped in a long song (an audiobook, a mix), one per song, for Subsonic clients' getBookmarks and createBookmark and the web player's resume.",
  requires: [songCataloguePort],
  provides: [bookmarksPort],
  tables: [bookmarks],
  jobs: [],
  settings: [],
  tags: ['bookmarks'],
  setup({ platform, use }) {
    const service = new BookmarksService(new BookmarksRepository(platform.database.db), use(songCataloguePort));
    return { ports: [bind(bookmarksPort, service)], routes: bookmarksRoutes(service), internals: { bookmarks: service } };
  },
});
