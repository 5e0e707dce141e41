import { bind, defineModule } from '../../modules/module.js';
import { accountRemovalPort } from './admin.port.js';
import { accountAdministrationPort } from '../auth/auth.port.js';
import { songOwnersPort } from '../library/song-owners.port.js';
import { musicFoldersPort } from '../music-folders/music-folders.port.js';
import { AccountRemoval } from './account-removal.service.js';
import { adminRoutes, ownAccountRoutes } from './admin.routes.js';
import { AdminService } from './admin.service.js';

export const adminModule = defineModule({
  name: 'admin',
  summary:
    "The admin page's calls (/api/admin/*, 404 to all but admins): accounts (role, disable, reset mail, delete), invitations and the sign-up setting, the music folders' scan, the job queues, storage per kind; and deleting one's own account.",
  requires: [accountAdministrationPort, songOwnersPort, musicFoldersPort],
  provides: [accountRemovalPort],
  tables: [],
  jobs: [],
  settings: [],
  tags: ['admin'],
  setup({ platform, use }) {
    const accounts = use(accountAdministrationPort);
    const removal = new AccountRemoval({ accounts, songs: use(songOwnersPort) });
    const admin = new AdminService({
      accounts,
      songs: use(songOwnersPort),
      musicFolders: use(musicFoldersPort),
      jobs: platform.jobs.admin,
      storage: platform.storage,
      removal,
    });
    return {
      ports: [bind(accountRemovalPort, removal)],
      routes: async (app) => {
        await app.register(adminRoutes(admin));
        await app.register(ownAccountRoutes(accounts, removal));
      },
      internals: { admin, removal },
    };
  },
});
