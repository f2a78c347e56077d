import { useCallback } from 'react';
import { useI18n } from './context';
import { fill, type Locale } from './locale';

/**
 * A pool's health check (issue 26 item 1: the card's action, the Health check dialog with its
 * status section and form), in both languages, here rather than in the console's catalogs: they
 * travel with the dialog's chunk, because the English catalog ships in the first load (issue 14).
 * The catalogs' rules hold here too (`health-check.test.ts`).
 */
export const HEALTH_CHECK_TEXTS = {
  en: {
    'action.healthCheck': 'Health check',
    'pool.healthCheck': 'Health check',
    'pool.healthCheck.none': 'None',
    'pool.healthCheck.counts': '{name}: {healthy} of {expected} healthy',
    'pool.healthCheck.held': '{name}: {healthy} of {expected} healthy, remediation held back',
    'pool.healthCheck.notObserved': '{name}: not reported yet',
    'healthCheck.title': 'Health check of {name}',
    'healthCheck.intro':
      'A MachineHealthCheck watches the machines of this pool: one whose Node holds an unhealthy condition past its timeout, or that has no Node after the start-up timeout, is marked unhealthy, and its MachineSet deletes and replaces it while the remediation limit allows.',
    'healthCheck.none':
      'No health check selects the machines of this pool: an unhealthy machine stays until someone replaces it.',
    'healthCheck.status': 'Status',
    'healthCheck.counts': '{healthy} of {expected} healthy · remediations allowed: {allowed}',
    'healthCheck.notObserved': 'Not yet reported by the MachineHealthCheck controller',
    'healthCheck.heldBack': 'Remediation held back: {message}',
    'healthCheck.machine.healthy': 'Healthy',
    'healthCheck.machine.unhealthy': 'Unhealthy: {why}',
    'healthCheck.machine.unchecked': 'Not checked yet',
    'healthCheck.machine.remediating': 'Being remediated: {why}',
    'healthCheck.machine.deleting': 'Deleting (remediated), a replacement follows',
    'healthCheck.others': 'Other health checks also select these machines: {names}',
    'healthCheck.conditions': 'Unhealthy node conditions',
    'healthCheck.conditionType': 'Condition',
    'healthCheck.conditionStatus': 'Status',
    'healthCheck.timeout': 'For (seconds)',
    'healthCheck.addCondition': 'Add a condition',
    'healthCheck.removeCondition': 'Remove condition {n}',
    'healthCheck.startup': 'Node start-up timeout (seconds)',
    'healthCheck.startupHelp': '0 turns it off; otherwise at least 30',
    'healthCheck.limit': 'Remediation limit',
    'healthCheck.limit.none': 'None: remediate every unhealthy machine',
    'healthCheck.limit.maxUnhealthy': 'At most this many unhealthy (number or percentage)',
    'healthCheck.limit.range': 'Only while the unhealthy count is within a range',
    'healthCheck.maxUnhealthy': 'Most unhealthy machines (maxUnhealthy)',
    'healthCheck.rangeMin': 'From',
    'healthCheck.rangeMax': 'To',
    'healthCheck.create': 'Create health check',
    'healthCheck.save': 'Save health check',
    'healthCheck.remove': 'Remove the health check',
    'healthCheck.applyRemove': 'Remove health check',
  },
  'zh-CN': {
    'action.healthCheck': '健康检查',
    'pool.healthCheck': '健康检查',
    'pool.healthCheck.none': '无',
    'pool.healthCheck.counts': '{name}：{expected} 台中 {healthy} 台健康',
    'pool.healthCheck.held': '{name}：{expected} 台中 {healthy} 台健康，修复已暂停',
    'pool.healthCheck.notObserved': '{name}：尚未上报',
    'healthCheck.title': '{name} 的健康检查',
    'healthCheck.intro':
      'MachineHealthCheck 监视该节点池的 machine：其 Node 的不健康条件持续超过超时，或超过启动超时仍没有 Node 的 machine 会被标记为不健康；在修复限制允许时，其 MachineSet 会删除并替换它。',
    'healthCheck.none':
      '没有健康检查选中该节点池的 machine：不健康的 machine 会一直保留，直到有人替换它。',
    'healthCheck.status': '状态',
    'healthCheck.counts': '{expected} 台中 {healthy} 台健康 · 允许修复：{allowed}',
    'healthCheck.notObserved': 'MachineHealthCheck 控制器尚未上报',
    'healthCheck.heldBack': '修复已暂停：{message}',
    'healthCheck.machine.healthy': '健康',
    'healthCheck.machine.unhealthy': '不健康：{why}',
    'healthCheck.machine.unchecked': '尚未检查',
    'healthCheck.machine.remediating': '正在修复：{why}',
    'healthCheck.machine.deleting': '正在删除（已修复），随后创建替代的 machine',
    'healthCheck.others': '其他健康检查也选中了这些 machine：{names}',
    'healthCheck.conditions': '不健康节点条件',
    'healthCheck.conditionType': '条件',
    'healthCheck.conditionStatus': '状态',
    'healthCheck.timeout': '持续（秒）',
    'healthCheck.addCondition': '添加条件',
    'healthCheck.removeCondition': '删除第 {n} 个条件',
    'healthCheck.startup': '节点启动超时（秒）',
    'healthCheck.startupHelp': '0 表示关闭；否则至少 30',
    'healthCheck.limit': '修复限制',
    'healthCheck.limit.none': '无：修复每台不健康的 machine',
    'healthCheck.limit.maxUnhealthy': '不健康的数量至多为此值（数字或百分比）',
    'healthCheck.limit.range': '仅当不健康的数量在某个范围内时',
    'healthCheck.maxUnhealthy': '不健康 machine 的上限（maxUnhealthy）',
    'healthCheck.rangeMin': '从',
    'healthCheck.rangeMax': '到',
    'healthCheck.create': '创建健康检查',
    'healthCheck.save': '保存健康检查',
    'healthCheck.remove': '删除健康检查',
    'healthCheck.applyRemove': '删除健康检查',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type HealthCheckTextKey = keyof (typeof HEALTH_CHECK_TEXTS)['en'];

export type HealthCheckText = (
  key: HealthCheckTextKey,
  params?: Record<string, string | number>,
) => string;

/** `t` for these texts, in the user's language. */
export function useHealthCheckTexts(): HealthCheckText {
  const { locale } = useI18n();
  return useCallback(
    (key, params) => fill(HEALTH_CHECK_TEXTS[locale][key], params, locale),
    [locale],
  );
}
