import { SHARE_MESSAGES } from '@encore/common/library.contract';
import { sendMailJob } from '../../platform/mail/mail.jobs.js';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { defineModule } from '../../modules/module.js';
import { accountsPort } from '../auth/auth.port.js';
import { PLAY_URL_TTL_SECONDS, songCataloguePort } from '../library/library.port.js';
import { shareLinks } from './sharing.schema.js';
import { SharingRepository } from './sharing.repository.js';
import { sharingRoutes } from './sharing.routes.js';
import { SharingService } from './sharing.service.js';

export const sharingModule = defineModule({
  name: 'sharing',
  summary: 'Share a song by e-mail: a 30-day link to a public page that plays it without an account.',
  requires: [songCataloguePort, accountsPort],
  provides: [],
  tables: [shareLinks],
  jobs: [],
  settings: [],
  tags: ['sharing'],
  messages: SHARE_MESSAGES,
  setup({ platform, publicUrl, use }) {
    const sharing = new SharingService({
      repository: new SharingRepository(platform.database.db),
      songs: use(songCataloguePort),
      accounts: use(accountsPort),
      rateLimiter: new RateLimiter(platform.database.db),
      enqueueMail: async (message) => {
        await platform.jobs.send(sendMailJob, message);
      },
      publicUrl,
      linkTtlDays: 30,
      sendsPerHour: 20,
      mediaTtlSeconds: PLAY_URL_TTL_SECONDS,
    });
    return {
      routes: sharingRoutes(sharing),
      maintenance: [{ name: 'expired share links', run: () => sharing.pruneExpired() }],
      internals: { sharing },
    };
  },
});
