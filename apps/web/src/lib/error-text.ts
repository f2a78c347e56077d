import type { Localizable } from '../i18n/context';
import { en, type MessageKey } from '../i18n/en';
import { isApiError } from './api-client';

/** An error as the user reads it: a headline and the reasons, in the user's language. */
export interface ErrorText {
  title: string;
  details: string[];
}

const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(en, key);

/**
 * The BFF's `{code, message, details}` in the user's language: the stable `code` by the console's
 * texts (`error.code.*`; an unknown code keeps the server's message), each error-severity detail
 * (a RuleIssue) by the catalogs `localize` knows — domain's rules, the BFF's own keys — else its
 * English message as sent (a Kubernetes API server's words are English only). Details that say
 * the same as the headline are left out.
 */
export function errorText(
  error: unknown,
  t: (key: MessageKey, params?: Record<string, string | number>) => string,
  localize: (item: Localizable) => string,
): ErrorText {
  if (!isApiError(error)) {
    return { title: error instanceof Error ? error.message : t('common.error'), details: [] };
  }
  const key = `error.code.${error.code}`;
  const title = isMessageKey(key) ? t(key) : error.message;
  const details: string[] = [];
  for (const d of error.details) {
    if (d.severity === 'warning') continue;
    const text = localize(d);
    if (text !== title && !details.includes(text)) details.push(text);
  }
  return { title, details };
}
