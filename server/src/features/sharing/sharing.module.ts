import { SHARE_MESSAGES } from '@encore/common/library.contract';
import { sendMailJob } from '../../platform/mail/mail.jobs.js';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { bind, defineModule } from '../../modules/module.js';
import { accountsPort } from '../auth/auth.port.js';
import { PLAY_URL_TTL_SECONDS, songCataloguePort } from '../library/library.port.js';
import { shareLinks } from './sharing.schema.js';
import { SharingRepository } from './sharing.repository.js';
import { sharingRoutes } from './sharing.routes.js';
import { SharingService } from './sharing.service.js';
import { ShareLinksService } from './share-links.service.js';
import { shareLinksPort } from './sharing.port.js';
import { ShareTokenBox } from './share-token-box.js';

export const sharingModule = defineModule({
  name: 'sharing',
  summary:
    'Share a song by e-mail or from a Subsonic app: an expiring link (30 days unless asked otherwise) to a public page that plays it without an account.',
  requires: [songCataloguePort, accountsPort],
  provides: [shareLinksPort],
  tables: [shareLinks],
  jobs: [],
  settings: [],
  tags: ['sharing'],
  messages: SHARE_MESSAGES,
  setup({ platform, publicUrl, use }) {
    const repository = new SharingRepository(platform.database.db);
    const songs = use(songCataloguePort);
    const tokens = new ShareTokenBox(platform.secrets.jwtKey);
    const sharing = new SharingService({
      repository,
      songs,
      accounts: use(accountsPort),
      rateLimiter: new RateLimiter(platform.database.db),
      enqueueMail: async (message) => {
        await platform.jobs.send(sendMailJob, message);
      },
      publicUrl,
      linkTtlDays: 30,
      sendsPerHour: 20,
      mediaTtlSeconds: PLAY_URL_TTL_SECONDS,
      tokens,
    });
    const links = new ShareLinksService({ repository, songs, tokens, publicUrl, linkTtlDays: 30, maxTtlDays: 365 });
    return {
      ports: [bind(shareLinksPort, links)],
      routes: sharingRoutes(sharing),
      maintenance: [{ name: 'expired share links', run: () => sharing.pruneExpired() }],
      internals: { sharing },
    };
  },
});
