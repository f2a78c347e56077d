import { fillMessage } from '../i18n/fill';

/**
 * The texts of the view models (diagnoses, checklists, pool problems, statuses) in English and
 * Chinese. Same shape as the rules' catalog (`src/i18n/messages.ts`), so that the two can be
 * merged: `{param}` placeholders, filled in by `formatViewMessage`. Keys start with `view.` so
 * that a merge cannot collide with the rules' keys.
 */
export const viewMessages = {
  // Pool statuses (NodePoolView.status).
  'view.status.Running': { en: 'Running', 'zh-CN': '运行中' },
  'view.status.ScalingUp': { en: 'Scaling up', 'zh-CN': '扩容中' },
  'view.status.ScalingDown': { en: 'Scaling down', 'zh-CN': '缩容中' },
  'view.status.Updating': { en: 'Updating', 'zh-CN': '更新中' },
  'view.status.Provisioning': { en: 'Provisioning', 'zh-CN': '创建中' },
  'view.status.Degraded': { en: 'Degraded', 'zh-CN': '降级' },
  'view.status.Failed': { en: 'Failed', 'zh-CN': '失败' },
  'view.status.Deleting': { en: 'Deleting', 'zh-CN': '删除中' },
  'view.status.Paused': { en: 'Paused', 'zh-CN': '已暂停' },
  'view.status.Unknown': { en: 'Unknown', 'zh-CN': '未知' },

  // T-1 and the other machine diagnoses (MachineView.diagnosis).
  'view.diagnosis.placementStall': {
    en: 'Machine {machine} has been provisioning since {since}: DCS authentication and the bootstrap ISO upload succeeded, but the VM is still "creating". This is a placement stall on the DCS platform, not a controller fault.',
    'zh-CN':
      'Machine {machine} 自 {since} 起一直处于 Provisioning：DCS 认证和 bootstrap ISO 上传已成功，但 VM 仍处于 creating。这是 DCS 平台侧的放置停滞，而不是 controller 故障。',
  },
  'view.diagnosis.earlyFailure': {
    en: 'Machine {machine} has been provisioning since {since} and its DCSMachine has no cdRomFile yet: the fault is before VM placement, in the DCS credentials or the bootstrap ISO upload.',
    'zh-CN':
      'Machine {machine} 自 {since} 起一直处于 Provisioning，且其 DCSMachine 尚未设置 cdRomFile：故障发生在 VM 放置之前，位于 DCS 凭据或 bootstrap ISO 上传环节。',
  },
  'view.diagnosis.waitingForIp': {
    en: 'Machine {machine} is waiting for a free entry in IP-hostname pool {pool}: every entry is claimed.',
    'zh-CN': 'Machine {machine} 正在等待 IP-Hostname 池 {pool} 中的空闲条目：所有条目均已被占用。',
  },
  'view.diagnosis.vmFailed': {
    en: 'Machine {machine} failed: {reason}: {message}',
    'zh-CN': 'Machine {machine} 失败：{reason}：{message}',
  },
  'view.diagnosis.nodeNotHealthy': {
    en: 'The node of machine {machine} has not been healthy since {since} ({reason}).',
    'zh-CN': 'Machine {machine} 的节点自 {since} 起一直不健康（{reason}）。',
  },

  // Checklist items of the diagnoses.
  'view.check.confirmPlacementStall': {
    en: 'Confirm that this is a placement stall, not a slow boot: on DCS, the VM has not been scheduled to any host.',
    'zh-CN': '确认症状是放置停滞，而不是启动缓慢：在 DCS 上，该 VM 尚未调度到任何主机。',
  },
  'view.check.datastoreFreeSpace': {
    en: 'Check the free space of the datastores the machine template and the IP pool persistent disks use.',
    'zh-CN': '检查 Machine 模板和 IP 池持久磁盘所用 datastore 的可用空间。',
  },
  'view.check.hostUtilization': {
    en: 'Check host CPU and memory use and the overcommit ratio on DCS.',
    'zh-CN': '检查 DCS 主机的 CPU / 内存利用率和超分配比例。',
  },
  'view.check.rebalanceHost': {
    en: 'When a DCS host is saturated, rebalance its load with the DCS platform team.',
    'zh-CN': '当某个 DCS 主机已饱和时，与 DCS 平台团队协调重新平衡负载。',
  },
  'view.check.escalateDeadlock': {
    en: 'When the DCS deployment task is truly deadlocked, escalate it to the DCS platform team.',
    'zh-CN': '当 DCS 部署任务确实发生死锁时，将其升级给 DCS 平台团队处理。',
  },
  'view.check.dcsCredentials': {
    en: "Check the DCS credentials: the DCSCluster's credential Secret, the DCS endpoint, and that the account may create VMs.",
    'zh-CN': '检查 DCS 凭据：DCSCluster 引用的凭据 Secret、DCS 端点，以及该账号是否有权创建 VM。',
  },
  'view.check.isoUpload': {
    en: "Check the bootstrap ISO upload: the machine's bootstrap data is ready and the DCS datastore accepts uploads.",
    'zh-CN':
      '检查 bootstrap ISO 上传：Machine 的 bootstrap 数据已就绪，且 DCS datastore 接受上传。',
  },
  'view.check.providerLogs': {
    en: "Read the DCS provider controller's log and the DCSMachine's conditions and events.",
    'zh-CN': '查看 DCS provider controller 日志以及 DCSMachine 的 conditions 和事件。',
  },
  'view.check.extendIpPool': {
    en: 'Add entries to the IP-hostname pool, keeping every existing entry (R-POOL-4).',
    'zh-CN': '向 IP-Hostname 池添加条目，并保留所有已有条目（R-POOL-4）。',
  },
  'view.check.lowerReplicas': {
    en: 'Or lower the replicas of the pools that use this IP pool.',
    'zh-CN': '或降低使用该 IP 池的节点池副本数。',
  },
  'view.check.releasedEntries': {
    en: 'Entries held by machines that are being deleted become free once their VMs are gone.',
    'zh-CN': '正在删除的 machine 所占用的条目会在其 VM 删除后释放。',
  },
  'view.check.failureDetails': {
    en: 'Read the failure reason and message on the Machine and the DCSMachine.',
    'zh-CN': '查看 Machine 和 DCSMachine 上的失败原因和消息。',
  },
  'view.check.dcsTaskLog': {
    en: "Check the VM's task log on DCS.",
    'zh-CN': '在 DCS 上查看该 VM 的任务日志。',
  },
  'view.check.replaceMachine': {
    en: 'Once the cause is fixed, delete the failed machine so that Cluster API replaces it.',
    'zh-CN': '修复原因后，删除失败的 machine，由 Cluster API 进行替换。',
  },
  'view.check.kubeletLogs': {
    en: "Open the VM's console on DCS and read the kubelet and bootstrap logs.",
    'zh-CN': '在 DCS 上打开 VM 控制台，查看 kubelet 和 bootstrap 日志。',
  },
  'view.check.versionMatchesTemplate': {
    en: 'Check that the Kubernetes version matches the one the VM template carries (R-MD-4).',
    'zh-CN': '检查 Kubernetes 版本是否与 VM 模板携带的版本一致（R-MD-4）。',
  },
  'view.check.kubeletPatch': {
    en: 'Check the kubelet patch of the bootstrap template for this Kubernetes version (R-BOOT-1).',
    'zh-CN': '检查 bootstrap 模板中的 kubelet 补丁是否符合该 Kubernetes 版本（R-BOOT-1）。',
  },
  'view.check.magicTokens': {
    en: 'Check that PROVIDER_ID and NODE_IP are kept verbatim in the bootstrap template (R-BOOT-2).',
    'zh-CN': '检查 bootstrap 模板中的 PROVIDER_ID 和 NODE_IP 是否保持原样（R-BOOT-2）。',
  },
  'view.check.apiServerReachable': {
    en: "Check that the VM's network reaches the cluster's API server endpoint.",
    'zh-CN': '检查 VM 网络能否访问集群的 API Server 端点。',
  },

  // Problems of a node pool (NodePoolView.problems).
  'view.problem.placementStall': {
    en: '{count, plural, one {# machine} other {# machines}} stalled in placement on DCS (T-1): {machines}',
    'zh-CN': '{count} 个 machine 在 DCS 上放置停滞（T-1）：{machines}',
  },
  'view.problem.earlyFailure': {
    en: '{count, plural, one {# machine} other {# machines}} stuck before VM placement (DCS credentials or bootstrap ISO upload): {machines}',
    'zh-CN': '{count} 个 machine 卡在 VM 放置之前（DCS 凭据或 bootstrap ISO 上传）：{machines}',
  },
  'view.problem.waitingForIp': {
    en: '{count, plural, one {# machine} other {# machines}} waiting for a free IP-hostname pool entry: {machines}',
    'zh-CN': '{count} 个 machine 正在等待空闲的 IP-Hostname 池条目：{machines}',
  },
  'view.problem.vmFailed': {
    en: '{count, plural, one {# machine} other {# machines}} failed: {machines}',
    'zh-CN': '{count} 个 machine 失败：{machines}',
  },
  'view.problem.nodeNotHealthy': {
    en: '{count, plural, one {# node} other {# nodes}} not healthy: {machines}',
    'zh-CN': '{count} 个节点不健康：{machines}',
  },
  'view.problem.drainBlocked': {
    en: 'Drain blocked by PodDisruptionBudget {budget} (needs {needs, plural, one {# healthy Pod} other {# healthy Pods}}, has {has}): {count, plural, one {# machine waits} other {# machines wait}} to be deleted: {machines}',
    'zh-CN':
      '排空被 PodDisruptionBudget {budget} 阻止（需要 {needs} 个健康 Pod，现有 {has} 个）：{count} 个 machine 等待删除：{machines}',
  },
  'view.problem.ipPoolShort': {
    en: 'IP-hostname pool {pool} has {total, plural, one {# entry} other {# entries}} but its pools want {demand, plural, one {# machine} other {# machines}}: surplus machines would wait without an address (R-POOL-1).',
    'zh-CN':
      'IP-Hostname 池 {pool} 只有 {total} 个条目，但使用它的节点池需要 {demand} 台 machine：多出的 machine 将因没有地址而等待（R-POOL-1）。',
  },
  'view.problem.ipPoolShortForRollout': {
    en: 'IP-hostname pool {pool} has {total, plural, one {# entry} other {# entries}}; a rolling update may need {demandWithSurge}: it would wait for addresses (R-POOL-1).',
    'zh-CN':
      'IP-Hostname 池 {pool} 有 {total} 个条目；滚动更新最多可能需要 {demandWithSurge} 个：更新将等待地址（R-POOL-1）。',
  },
  'view.problem.ipPoolMissing': {
    en: 'The machine template names IP-hostname pool {pool}, which does not exist.',
    'zh-CN': 'Machine 模板引用的 IP-Hostname 池 {pool} 不存在。',
  },
  'view.problem.machineTemplateMissing': {
    en: 'Machine template {name} does not exist.',
    'zh-CN': 'Machine 模板 {name} 不存在。',
  },
  'view.problem.bootstrapTemplateMissing': {
    en: 'Bootstrap template {name} does not exist.',
    'zh-CN': 'Bootstrap 模板 {name} 不存在。',
  },
  'view.problem.legacyDiskLayout': {
    en: "Legacy disk layout: machine template {template} mounts /var/cpaas. With DCS provider {providerVersion} it belongs in the IP pool's persistentDisk; migrate to pool-managed persistent disks (R-DISK-5).",
    'zh-CN':
      '旧磁盘布局：Machine 模板 {template} 挂载了 /var/cpaas。DCS provider {providerVersion} 下它应在 IP 池的 persistentDisk 中声明；请迁移到由池管理的持久磁盘（R-DISK-5）。',
  },
  'view.problem.surgeWithPersistentDisks': {
    en: 'maxSurge is {maxSurge} but the pool relies on persistent disks: keep maxSurge = 0 so that machines are replaced one at a time (R-MD-3).',
    'zh-CN':
      'maxSurge 为 {maxSurge}，但该节点池依赖持久磁盘：请保持 maxSurge = 0，以便逐个替换 machine（R-MD-3）。',
  },
  'view.problem.invalidStrategy': {
    en: 'maxSurge {maxSurge} / maxUnavailable {maxUnavailable} is not a valid rolling-update strategy (R-MD-2).',
    'zh-CN':
      'maxSurge {maxSurge} / maxUnavailable {maxUnavailable} 不是有效的滚动更新策略（R-MD-2）。',
  },
  'view.problem.newerThanControlPlane': {
    en: 'Kubernetes {version} is newer than the control plane ({controlPlaneVersion}) (R-MD-4).',
    'zh-CN': 'Kubernetes {version} 比控制平面（{controlPlaneVersion}）更新（R-MD-4）。',
  },
  'view.problem.tooOldForControlPlane': {
    en: 'Kubernetes {version} is {skew} minor versions behind the control plane ({controlPlaneVersion}); at most 3 are supported (R-MD-4).',
    'zh-CN':
      'Kubernetes {version} 落后控制平面（{controlPlaneVersion}）{skew} 个次版本；最多支持 3 个（R-MD-4）。',
  },
  'view.problem.vmTemplateVersionMismatch': {
    en: 'VM template {vmTemplateName} carries Kubernetes {templateVersion}, but the pool asks for {version}: nodes would fail to join (R-MD-4).',
    'zh-CN':
      'VM 模板 {vmTemplateName} 携带 Kubernetes {templateVersion}，但节点池要求 {version}：节点将无法加入（R-MD-4）。',
  },
  'view.problem.cpaasMissing': {
    en: '{path} is mounted neither by machine template {template} nor by a persistent disk of {count, plural, one {# entry} other {# entries}} of IP pool {pool} ({ips}): the platform requires it on every machine, and upgrades of this pool will be refused until it is. Add a persistent disk with path {path} to {count, plural, one {that entry} other {those entries}} (R-DISK-5).',
    'zh-CN':
      'Machine 模板 {template} 和 IP 池 {pool} 的 {count} 个条目（{ips}）的持久磁盘都没有挂载 {path}：平台要求每台 machine 都挂载它，在补上之前该节点池的升级将被拒绝。请为这些条目添加 path 为 {path} 的持久磁盘（R-DISK-5）。',
  },
  'view.problem.mountedTwice': {
    en: '{path} is mounted both by machine template {template} and by a persistent disk of {count, plural, one {# entry} other {# entries}} of IP pool {pool} ({ips}): mount paths must be unique (R-TPL-2).',
    'zh-CN':
      '{path} 同时由 Machine 模板 {template} 和 IP 池 {pool} 的 {count} 个条目（{ips}）的持久磁盘挂载：挂载路径必须唯一（R-TPL-2）。',
  },
  'view.problem.controlPlaneReplicasEven': {
    en: 'The control plane has {replicas, plural, one {# replica} other {# replicas}}: an even number gives etcd no more fault tolerance than one fewer, and Cluster API refuses it with stacked etcd. Set it back to {expected}.',
    'zh-CN':
      '控制平面有 {replicas} 个副本：偶数个副本的 etcd 容错能力并不比少一个时更高，且 Cluster API 在堆叠 etcd 模式下会拒绝它。请改回 {expected}。',
  },
  'view.problem.controlPlaneReplicasNotHa': {
    en: 'The control plane has {replicas, plural, one {# replica} other {# replicas}}; the console keeps it at {expected} for high availability.',
    'zh-CN': '控制平面有 {replicas} 个副本；控制台为保证高可用将其保持为 {expected} 个。',
  },
  'view.problem.ruleIssue': {
    en: '{message}',
    'zh-CN': '{message}',
  },
  'view.problem.conditionNoMessage': {
    en: '{type} is {status} ({reason}).',
    'zh-CN': '{type} 为 {status}（{reason}）。',
  },
  'view.problem.condition': {
    en: '{type} is {status} ({reason}): {message}',
    'zh-CN': '{type} 为 {status}（{reason}）：{message}',
  },
} as const satisfies Record<string, { en: string; 'zh-CN': string }>;

export type ViewMessageKey = keyof typeof viewMessages;
export type ViewLocale = 'en' | 'zh-CN';
export type ViewMessageParams = Record<string, string | number>;

/** The text of `key` in `locale` with its `{param}` placeholders filled in. */
export function formatViewMessage(
  key: ViewMessageKey,
  params: ViewMessageParams = {},
  locale: ViewLocale = 'en',
): string {
  return fillMessage(viewMessages[key][locale], params, locale);
}
