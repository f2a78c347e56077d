import { useCallback } from 'react';
import { useI18n } from './context';
import { fill, type Locale } from './locale';

/**
 * The cluster autoscaler's texts (issue 26 item 2: the pool card's facts and action, the
 * Autoscaling dialog, the Scale dialog's line), in both languages, here rather than in the
 * console's catalogs: they travel with the chunks that show them (the Node Pools route, the
 * dialogs), because the English catalog ships in the first load and that had no room left
 * (issue 14: 200 KB gzipped). The catalogs' rules hold here too (`autoscale.test.ts`: the same
 * keys in both languages, only glossary terms in English in the Chinese, no bare count before a
 * plural noun).
 */
export const AUTOSCALE_TEXTS = {
  en: {
    'autoscale.title': 'Autoscaling of {name}',
    'autoscale.intro':
      'The cluster autoscaler keeps this pool between these bounds, adding machines when pods cannot be scheduled and removing unneeded ones (the min-size and max-size annotations of its MachineDeployment).',
    'autoscale.minSize': 'Minimum replicas',
    'autoscale.maxSize': 'Maximum replicas',
    'autoscale.minHelp': 'A whole number, 0 or more',
    'autoscale.maxHelp': 'A whole number, at least the minimum and 1',
    'autoscale.current': 'Replicas now: {n}',
    'autoscale.moveReplicas':
      'Also set replicas from {from} to {to}: the autoscaler leaves a pool outside its bounds alone',
    'autoscale.remove': 'Remove the bounds',
    'autoscale.apply': 'Set bounds',
    'autoscale.applyRemove': 'Remove bounds',
    'scale.autoscaled':
      'Autoscaled between {min} and {max}: outside them a count is refused, within them the autoscaler may change it again.',
    'action.autoscale': 'Autoscaling',
    'pool.autoscaling': 'Autoscaling',
    'pool.autoscalerStatus': 'Cluster autoscaler',
    'autoscale.off': 'Off',
    'autoscale.bounds': '{min}–{max, plural, one {# replica} other {# replicas}}',
    'autoscale.ignored': 'Ignored by the autoscaler (min-size {min}, max-size {max})',
    'autoscale.status.unavailable': 'Not shown: {message}',
    'autoscale.status.notFound': 'No status: no cluster autoscaler writes {configMap}',
    'autoscale.status.unreadable': 'Unreadable: {error}',
    'autoscale.status.notListed': 'Not one of its node groups (yet)',
    'autoscale.status.group': '{health} · target {target}, {ready} ready (min {min}, max {max})',
    'autoscale.status.scaleUp': 'Last scale-up: {status}',
    'autoscale.status.scaleDown': 'Last scale-down: {status}',
    'autoscale.status.since': '({when})',
    'autoscale.status.backoff': 'Scale-ups backed off: {error}',
  },
  'zh-CN': {
    'autoscale.title': '{name} 的自动伸缩',
    'autoscale.intro':
      'cluster-autoscaler 会把该节点池保持在这些边界之内：有 Pod 无法调度时增加 machine，节点不再需要时移除 machine（即其 MachineDeployment 的 min-size 和 max-size 注解）。',
    'autoscale.minSize': '最小副本数',
    'autoscale.maxSize': '最大副本数',
    'autoscale.minHelp': '不小于 0 的整数',
    'autoscale.maxHelp': '不小于最小副本数且不小于 1 的整数',
    'autoscale.current': '当前副本数：{n}',
    'autoscale.moveReplicas':
      '同时将副本数从 {from} 改为 {to}：超出边界的节点池 cluster-autoscaler 不会管理',
    'autoscale.remove': '移除边界',
    'autoscale.apply': '设置边界',
    'autoscale.applyRemove': '移除边界',
    'scale.autoscaled':
      '由 cluster-autoscaler 在 {min} 到 {max} 之间伸缩：超出范围的副本数会被拒绝，范围内的副本数可能被它再次修改。',
    'action.autoscale': '自动伸缩',
    'pool.autoscaling': '自动伸缩',
    'pool.autoscalerStatus': 'cluster-autoscaler 状态',
    'autoscale.off': '未启用',
    'autoscale.bounds': '{min}–{max} 个副本',
    'autoscale.ignored': '被 cluster-autoscaler 忽略（min-size {min}，max-size {max}）',
    'autoscale.status.unavailable': '无法显示：{message}',
    'autoscale.status.notFound': '无状态：没有 cluster-autoscaler 写入 {configMap}',
    'autoscale.status.unreadable': '无法读取：{error}',
    'autoscale.status.notListed': '（尚）不是其节点组',
    'autoscale.status.group': '{health} · 目标 {target}，{ready} 个就绪（最小 {min}，最大 {max}）',
    'autoscale.status.scaleUp': '最近扩容：{status}',
    'autoscale.status.scaleDown': '最近缩容：{status}',
    'autoscale.status.since': '（{when}）',
    'autoscale.status.backoff': '扩容已退避：{error}',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type AutoscaleTextKey = keyof (typeof AUTOSCALE_TEXTS)['en'];

export type AutoscaleText = (
  key: AutoscaleTextKey,
  params?: Record<string, string | number>,
) => string;

/** `t` for these texts, in the user's language. */
export function useAutoscaleTexts(): AutoscaleText {
  const { locale } = useI18n();
  return useCallback((key, params) => fill(AUTOSCALE_TEXTS[locale][key], params, locale), [locale]);
}
