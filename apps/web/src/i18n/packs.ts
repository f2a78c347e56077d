import { en } from './en';
import type { Locale } from './locale';
import type { LocalePack } from './locale-pack';

/**
 * English comes with the first load and needs no catalog of plans and rules: every such message
 * arrives with its English text already filled in (`message`, made by domain's `issue()` and
 * `planMessage()`). That keeps both rule catalogs out of the first load (issue 14).
 */
export const ENGLISH: LocalePack = { dict: en, domain: () => undefined };

/** Any other language is a chunk of its own, loaded when it is first chosen (or about to be). */
const loaders: Record<Locale, () => Promise<LocalePack>> = {
  en: () => Promise.resolve(ENGLISH),
  'zh-CN': async () => (await import('./pack-zh-CN')).zhCNPack,
};

const loaded = new Map<Locale, LocalePack>([['en', ENGLISH]]);
const pending = new Map<Locale, Promise<LocalePack>>();

/** The pack of `locale` if it has loaded, for a synchronous render. */
export const loadedPack = (locale: Locale): LocalePack | undefined => loaded.get(locale);

/** Loads `locale`'s pack once (a failed load may be retried: it is not remembered). */
export function loadPack(locale: Locale): Promise<LocalePack> {
  const have = loaded.get(locale);
  if (have) return Promise.resolve(have);
  let load = pending.get(locale);
  if (!load) {
    load = loaders[locale]().then(
      (pack) => {
        loaded.set(locale, pack);
        return pack;
      },
      (error: unknown) => {
        pending.delete(locale);
        throw error;
      },
    );
    pending.set(locale, load);
  }
  return load;
}
