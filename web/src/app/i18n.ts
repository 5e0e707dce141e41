import { installCatalogues } from '../lib/i18n/i18n.store';
import { en } from './catalogue.en';

// The app's message catalogues, assembled here with its features and installed before anything
// is translated (main.tsx and the tests' setup import this module first). Hebrew is a chunk of
// its own, downloaded only for a visitor who reads it or chooses it (the landing page's budget).
installCatalogues({ en, load: { he: async () => (await import('./catalogue.he')).he } });
