import { LOCALES } from '../i18n/locale';
import { loadPack } from '../i18n/packs';

// As main.tsx does before the first render: a component rendered in Chinese speaks Chinese at
// once. (I18nProvider.test.tsx starts from a fresh module registry to test the loading itself.)
await Promise.all(LOCALES.map(loadPack));
