import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MessageKey } from './en';
import { I18nContext, type I18n } from './context';
import { localizerFor } from './localize';
import { fill, initialLocale, saveLocale, type Locale } from './locale';
import { ENGLISH, loadedPack, loadPack } from './packs';

/**
 * The language of the console: the user's choice, else the browser's. Texts of the app come
 * from the typed dictionaries beside this file; texts of views and rules come with the data as
 * `{messageKey, params, message}` and are looked up in domain's catalogs (`localize.ts`).
 *
 * Only English ships with the first load; another language's pack loads when it is chosen
 * (main.tsx loads the initial one before the first render). Until a chosen pack has arrived the
 * console keeps speaking the language it speaks, so no screen ever shows a raw key.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [wanted] = useState<Locale>(initialLocale);
  // The language on screen: the wanted one once its pack is there (main.tsx waits for it).
  const [locale, setLocaleState] = useState<Locale>(() => (loadedPack(wanted) ? wanted : 'en'));
  const latest = useRef<Locale>(wanted);

  const setLocale = useCallback((next: Locale) => {
    latest.current = next;
    loadPack(next).then(
      () => {
        // A later choice made while this pack loaded wins.
        if (latest.current !== next) return;
        saveLocale(next);
        setLocaleState(next);
      },
      () => {
        // The pack did not load (offline, a new deploy): stay in the language on screen.
      },
    );
  }, []);

  useEffect(() => {
    // The initial choice was not loaded before the first render (a failed preload): load it now.
    if (!loadedPack(wanted)) setLocale(wanted);
  }, [wanted, setLocale]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const value = useMemo<I18n>(() => {
    const pack = loadedPack(locale) ?? ENGLISH;
    const t = (key: MessageKey, params?: Record<string, string | number>) =>
      fill(pack.dict[key], params, locale);
    return { locale, setLocale, t, localize: localizerFor(locale, pack) };
  }, [locale, setLocale]);

  return <I18nContext value={value}>{children}</I18nContext>;
}
