import { bind, defineModule } from '../../modules/module.js';
import { accountsPort } from '../auth/auth.port.js';
import { radioStationsPort } from './radio.port.js';
import { RadioRepository } from './radio.repository.js';
import { radioStations } from './radio.schema.js';
import { RadioService } from './radio.service.js';

export const radioModule = defineModule({
  name: 'radio',
  summary:
    "Internet radio stations (HTTP audio streams) of the instance: listed by everyone, added, changed and removed by admins (Subsonic's internet radio calls).",
  requires: [accountsPort],
  provides: [radioStationsPort],
  tables: [radioStations],
  jobs: [],
  settings: [],
  tags: [],
  setup({ platform, use }) {
    const accounts = use(accountsPort);
    const service = new RadioService(new RadioRepository(platform.database.db), (userId) => accounts.isAdmin(userId));
    return { ports: [bind(radioStationsPort, service)], internals: { radio: service } };
  },
});
