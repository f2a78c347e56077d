import { useCallback } from 'react';
import { useI18n } from './context';
import { fill, type Locale } from './locale';

/**
 * The machine page's Deletion panel (issue 26 item 6: the deletion step, what the drain waits for,
 * what the operator can do), in both languages, here rather than in the console's catalogs: they
 * travel with the machine page's chunk, not the first load (issue 14). The catalogs' rules hold
 * here too (`feature-texts.test.ts`).
 */
export const DELETION_TEXTS = {
  en: {
    'deletion.title': 'Deletion',
    'deletion.steps': 'Deletion steps',
    'deletion.step.WaitingForPreDrainHook': 'Waiting for pre-drain hooks',
    'deletion.step.DrainingNode': 'Draining node',
    'deletion.step.WaitingForVolumeDetach': 'Waiting for volumes to detach',
    'deletion.step.WaitingForPreTerminateHook': 'Waiting for pre-terminate hooks',
    'deletion.step.WaitingForInfrastructureDeletion': 'Deleting the VM',
    'deletion.step.WaitingForBootstrapDeletion': 'Deleting the bootstrap config',
    'deletion.step.DeletingNode': 'Deleting the Node',
    'deletion.stepDone': 'done',
    'deletion.stepCurrent': 'now',
    'deletion.stepUnknown':
      'Cluster API has not reported the deletion step yet (its Deleting condition).',
    'deletion.drainTime': 'Draining for {elapsed}; nodeDrainTimeout is {timeout}.',
    'deletion.drainTimeForever':
      'Draining for {elapsed}. No nodeDrainTimeout is set: the drain waits forever, until every Pod is evicted (Cluster API’s default).',
    'deletion.drainTimedOut':
      'Draining for {elapsed}: past the nodeDrainTimeout of {timeout}, Cluster API stops draining and goes on deleting.',
    'deletion.drainNotStarted': 'The drain has not started yet.',
    'deletion.excluded':
      'The Machine has the machine.cluster.x-k8s.io/exclude-node-draining annotation: Cluster API skips its drain.',
    'deletion.evicting': 'Pods being evicted',
    'deletion.refused': 'Evictions refused',
    'deletion.later': 'Pods evicted after these',
    'deletion.more': '… and {count} more',
    'deletion.moreErrors':
      '… and {errors, plural, one {# more error} other {# more errors}} for {pods, plural, one {# Pod} other {# Pods}}',
    'deletion.pdb':
      'PodDisruptionBudget {name} needs {needs, plural, one {# healthy Pod} other {# healthy Pods}} and has {has}: one more eviction would break it.',
    'deletion.otherError': 'The eviction failed: {error}',
    'deletion.noPods': 'No Pod is listed yet: the first evictions are being sent.',
    'deletion.actions': 'What you can do',
    'deletion.action.wait':
      'Wait. Cluster API retries the drain every 20 seconds; the deletion goes on once the Pods are gone.',
    'deletion.action.fixPdb':
      'Let the PodDisruptionBudget allow the eviction: scale its workload up, or lower its minAvailable (raise its maxUnavailable). The next retry then evicts the Pod. Inspect it in the workload cluster:',
    'deletion.action.setTimeout':
      'Set a nodeDrainTimeout on pool {pool}: once the drain has lasted that long, Cluster API stops draining and deletes the machine; the Pods not evicted stop with the VM, whatever their budgets say. Machines already draining take the new value.',
    'deletion.action.changeTimeout':
      'Change the nodeDrainTimeout of pool {pool} ({timeout} now): a shorter one ends this drain sooner, the Pods not evicted stopping with the VM; a longer one gives the budgets more time.',
    'deletion.action.controlPlaneTimeout':
      'The control plane’s nodeDrainTimeout is in its KubeadmControlPlane, under spec.machineTemplate: a shorter one ends this drain sooner.',
    'deletion.action.exclude':
      'Skip the drain: annotate the Machine with machine.cluster.x-k8s.io/exclude-node-draining. Cluster API then deletes it without evicting anything: its Pods stop with the VM and no PodDisruptionBudget is respected. In the management cluster:',
    'deletion.editTimeout': 'Edit nodeDrainTimeout',
    'deletion.commandPdb': 'Command: inspect the PodDisruptionBudget',
    'deletion.commandExclude': 'Command: skip the drain',
  },
  'zh-CN': {
    'deletion.title': '删除',
    'deletion.steps': '删除步骤',
    'deletion.step.WaitingForPreDrainHook': '等待排空前钩子',
    'deletion.step.DrainingNode': '正在排空节点',
    'deletion.step.WaitingForVolumeDetach': '等待卷卸载',
    'deletion.step.WaitingForPreTerminateHook': '等待终止前钩子',
    'deletion.step.WaitingForInfrastructureDeletion': '正在删除 VM',
    'deletion.step.WaitingForBootstrapDeletion': '正在删除 bootstrap 配置',
    'deletion.step.DeletingNode': '正在删除 Node',
    'deletion.stepDone': '已完成',
    'deletion.stepCurrent': '当前',
    'deletion.stepUnknown': 'Cluster API 尚未报告删除步骤（其 Deleting 条件）。',
    'deletion.drainTime': '已排空 {elapsed}；nodeDrainTimeout 为 {timeout}。',
    'deletion.drainTimeForever':
      '已排空 {elapsed}。未设置 nodeDrainTimeout：排空将一直等待，直到所有 Pod 都被驱逐（Cluster API 的默认行为）。',
    'deletion.drainTimedOut':
      '已排空 {elapsed}：已超过 nodeDrainTimeout（{timeout}），Cluster API 停止排空并继续删除。',
    'deletion.drainNotStarted': '排空尚未开始。',
    'deletion.excluded':
      '该 Machine 带有 machine.cluster.x-k8s.io/exclude-node-draining 注解：Cluster API 跳过其排空。',
    'deletion.evicting': '正在驱逐的 Pod',
    'deletion.refused': '被拒绝的驱逐',
    'deletion.later': '随后驱逐的 Pod',
    'deletion.more': '……另有 {count} 个',
    'deletion.moreErrors': '……另有 {errors} 个错误，涉及 {pods} 个 Pod',
    'deletion.pdb':
      'PodDisruptionBudget {name} 需要 {needs} 个健康 Pod，现有 {has} 个：再驱逐一个就会违反它。',
    'deletion.otherError': '驱逐失败：{error}',
    'deletion.noPods': '尚未列出 Pod：正在发出首批驱逐。',
    'deletion.actions': '可以采取的操作',
    'deletion.action.wait': '等待。Cluster API 每 20 秒重试一次排空；Pod 全部离开后删除继续进行。',
    'deletion.action.fixPdb':
      '让 PodDisruptionBudget 允许驱逐：扩容其工作负载，或调低其 minAvailable（调高其 maxUnavailable）。下次重试即会驱逐该 Pod。在工作负载集群中查看它：',
    'deletion.action.setTimeout':
      '为节点池 {pool} 设置 nodeDrainTimeout：排空持续到该时长后，Cluster API 停止排空并删除该 machine；未被驱逐的 Pod 随 VM 一起停止，不论其中断预算如何。正在排空的 machine 也会采用新值。',
    'deletion.action.changeTimeout':
      '修改节点池 {pool} 的 nodeDrainTimeout（当前为 {timeout}）：更短会更早结束此次排空，未被驱逐的 Pod 随 VM 一起停止；更长则给中断预算更多时间。',
    'deletion.action.controlPlaneTimeout':
      '控制平面的 nodeDrainTimeout 位于其 KubeadmControlPlane 的 spec.machineTemplate 中：更短会更早结束此次排空。',
    'deletion.action.exclude':
      '跳过排空：为该 Machine 添加 machine.cluster.x-k8s.io/exclude-node-draining 注解。Cluster API 随即删除它而不驱逐任何 Pod：其 Pod 随 VM 一起停止，不遵守任何 PodDisruptionBudget。在管理集群中执行：',
    'deletion.editTimeout': '编辑 nodeDrainTimeout',
    'deletion.commandPdb': '命令：查看 PodDisruptionBudget',
    'deletion.commandExclude': '命令：跳过排空',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type DeletionTextKey = keyof (typeof DELETION_TEXTS)['en'];

export type DeletionText = (
  key: DeletionTextKey,
  params?: Record<string, string | number>,
) => string;

/** `t` for these texts, in the user's language. */
export function useDeletionTexts(): DeletionText {
  const { locale } = useI18n();
  return useCallback((key, params) => fill(DELETION_TEXTS[locale][key], params, locale), [locale]);
}
