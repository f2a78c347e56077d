import { createContext, useContext } from 'react';
import type { MessageKey } from './en';
import type { Locale } from './locale';

/** Anything that carries its own text: a RuleIssue, a ViewProblem, a plan message. */
export interface Localizable {
  messageKey: string;
  params: Record<string, string | number>;
  message: string;
}

export interface I18n {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: (key: MessageKey, params?: Record<string, string | number>) => string;
  localize: (item: Localizable) => string;
}

export const I18nContext = createContext<I18n | undefined>(undefined);

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
