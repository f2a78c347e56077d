import { formatViewMessage, viewMessages, type ViewMessageKey } from '@dcs/domain';
import type { Localizable } from './context';
import type { MessageKey } from './en';
import { fill, type Locale } from './locale';
import type { LocalePack } from './locale-pack';

const isViewKey = (key: string): key is ViewMessageKey => Object.hasOwn(viewMessages, key);

/**
 * The one place that decides which catalog a `{messageKey, params, message}` from the wire is
 * looked up in: domain's views (`view.*`), the console's own dictionary, then the language
 * pack's plans and rules (`packs.ts`). A key no catalog knows keeps the English `message` it
 * came with.
 */
export function localizerFor(locale: Locale, pack: LocalePack): (item: Localizable) => string {
  const { dict } = pack;
  const isOwnKey = (key: string): key is MessageKey => Object.hasOwn(dict, key);
  return (item) => {
    if (isViewKey(item.messageKey)) return formatViewMessage(item.messageKey, item.params, locale);
    if (isOwnKey(item.messageKey)) return fill(dict[item.messageKey], item.params, locale);
    return pack.domain(item) ?? item.message;
  };
}
