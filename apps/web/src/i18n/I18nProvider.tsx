import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey } from './en';
import { I18nContext, type I18n } from './context';
import { localizerFor } from './localize';
import { fill, initialLocale, saveLocale, type Locale } from './locale';
import { zhCN } from './zh-CN';

const dictionaries = { en, 'zh-CN': zhCN } as const;

/**
 * The language of the console: the user's choice, else the browser's. Texts of the app come
 * from the typed dictionaries beside this file; texts of views and rules come with the data as
 * `{messageKey, params, message}` and are looked up in domain's catalogs (`localize.ts`).
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    saveLocale(next);
    setLocaleState(next);
  }, []);

  const value = useMemo<I18n>(() => {
    const dict = dictionaries[locale];
    const t = (key: MessageKey, params?: Record<string, string | number>) =>
      fill(dict[key], params, locale);
    return { locale, setLocale, t, localize: localizerFor(locale, dict) };
  }, [locale, setLocale]);

  return <I18nContext value={value}>{children}</I18nContext>;
}
