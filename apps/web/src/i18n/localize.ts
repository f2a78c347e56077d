import {
  formatViewMessage,
  localizeMessage,
  localizePlanMessage,
  planCatalog,
  viewMessages,
  type ViewMessageKey,
} from '@dcs/domain';
import type { Localizable } from './context';
import type { Messages, MessageKey } from './en';
import { fill, type Locale } from './locale';

const isViewKey = (key: string): key is ViewMessageKey => Object.hasOwn(viewMessages, key);
const isPlanKey = (key: string): boolean => Object.hasOwn(planCatalog, key);

/**
 * The one place that decides which catalog a `{messageKey, params, message}` from the wire is
 * looked up in: domain's views (`view.*`), the console's own dictionary, domain's plans (steps,
 * undo, effects and the planners' issues), else domain's rules. A key no catalog knows keeps
 * the English `message` it came with.
 */
export function localizerFor(locale: Locale, dict: Messages): (item: Localizable) => string {
  const isOwnKey = (key: string): key is MessageKey => Object.hasOwn(dict, key);
  return (item) => {
    if (isViewKey(item.messageKey)) return formatViewMessage(item.messageKey, item.params, locale);
    if (isOwnKey(item.messageKey)) return fill(dict[item.messageKey], item.params, locale);
    if (isPlanKey(item.messageKey)) return localizePlanMessage(item, locale);
    return localizeMessage(item, locale);
  };
}
