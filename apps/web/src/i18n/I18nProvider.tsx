import { formatViewMessage, localizeMessage, viewMessages, type ViewMessageKey } from '@dcs/domain';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey } from './en';
import { I18nContext, type I18n, type Localizable } from './context';
import { fill, initialLocale, saveLocale, type Locale } from './locale';
import { zhCN } from './zh-CN';

const dictionaries = { en, 'zh-CN': zhCN } as const;

const isOwnKey = (key: string): key is MessageKey => Object.hasOwn(en, key);
const isViewKey = (key: string): key is ViewMessageKey => Object.hasOwn(viewMessages, key);

/**
 * The language of the console: the user's choice, else the browser's. Texts of the app come
 * from the typed dictionaries beside this file; texts of views and rules come with the data as
 * `{messageKey, params, message}` and are looked up in domain's catalogs, falling back to the
 * English `message` for a key the catalogs lack.
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
      fill(dict[key], params);
    // Plan messages (`plan.*`) have no Chinese yet in domain: localizeMessage falls back to English.
    const localize = (item: Localizable) =>
      isViewKey(item.messageKey)
        ? formatViewMessage(item.messageKey, item.params, locale)
        : isOwnKey(item.messageKey)
          ? fill(dict[item.messageKey], item.params)
          : localizeMessage(item, locale);
    return { locale, setLocale, t, localize };
  }, [locale, setLocale]);

  return <I18nContext value={value}>{children}</I18nContext>;
}
