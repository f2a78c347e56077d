import { localizeMessage, localizePlanMessage, planCatalog } from '@dcs/domain';
import type { LocalePack } from './locale-pack';
import { zhCN } from './zh-CN';

/**
 * Simplified Chinese, loaded on demand (`packs.ts`): the console's texts and domain's catalogs
 * of plans (steps, undo, effects, the planners' issues) and rules, in that order of lookup.
 */
export const zhCNPack: LocalePack = {
  dict: zhCN,
  domain: (item) =>
    Object.hasOwn(planCatalog, item.messageKey)
      ? localizePlanMessage(item, 'zh-CN')
      : localizeMessage(item, 'zh-CN'),
};
