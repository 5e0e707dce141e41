import { bind, defineModule } from '../../modules/module.js';
import { accountsPort } from '../auth/auth.port.js';
import { radioStationsPort } from './radio.port.js';
import { RadioRepository } from './radio.repository.js';
import { radioStations } from './radio.schema.js';
import { RadioNowPlaying } from './radio-now-playing.service.js';
import { radioRoutes } from './radio.routes.js';
import { RadioService } from './radio.service.js';

export const radioModule = defineModule({
  name: 'radio',
  summary:
    "Internet radio stations (HTTP audio streams) of the instance: listed by everyone, added, changed and removed by admins (Subsonic's internet radio calls, the web app's Radio page); what a station plays now, read from its ICY metadata.",
  requires: [accountsPort],
  provides: [radioStationsPort],
  tables: [radioStations],
  jobs: [],
  settings: [],
  tags: ['radio'],
  setup({ platform, logger, use }) {
    const accounts = use(accountsPort);
    const service = new RadioService(new RadioRepository(platform.database.db), (userId) => accounts.isAdmin(userId));
    const nowPlaying = new RadioNowPlaying((id) => service.get(id), logger);
    return { ports: [bind(radioStationsPort, service)], routes: radioRoutes(service, nowPlaying), internals: { radio: service, nowPlaying } };
  },
});
