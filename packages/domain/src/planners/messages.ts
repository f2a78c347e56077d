import { fillMessage } from '../i18n/fill';
import type { Locale, MessageText } from '../i18n/messages';

/**
 * Texts of everything a plan says: step descriptions, undo steps, effects and the planner's own
 * issues, in English and Simplified Chinese (the reference's terms: IP 池, 条目, 持久磁盘, 滚动更新,
 * 副本数, Machine 模板, Bootstrap 模板). Keys are `plan.*`, so this catalog merges with the rules'
 * and the views'. A plan carries the English `message`; `localizePlanMessage` gives the other.
 */
const catalog = {
  'plan.step.createIpPool': {
    en: 'Create IP pool {name} with {count, plural, one {# entry} other {# entries}}',
    'zh-CN': '创建 IP 池 {name}，包含 {count} 个条目',
  },
  'plan.step.appendIpPool': {
    en: 'Append {count, plural, one {# entry} other {# entries}} to IP pool {name}, keeping its {existing, plural, one {# entry} other {# entries}}',
    'zh-CN': '向 IP 池 {name} 追加 {count} 个条目，保留其已有的 {existing} 个条目',
  },
  'plan.step.editIpPool': {
    en: 'Edit IP pool {name}: {appended} appended, {removed} removed, {updated} updated (existing entries kept as they are)',
    'zh-CN':
      '编辑 IP 池 {name}：追加 {appended} 个、删除 {removed} 个、更新 {updated} 个条目（其余条目保持原样）',
  },
  'plan.step.createMachineTemplate': {
    en: 'Create machine template {name}',
    'zh-CN': '创建 Machine 模板 {name}',
  },
  'plan.step.cloneMachineTemplate': {
    en: 'Create machine template {name} as a copy of {from} with your changes',
    'zh-CN': '以 {from} 为副本并应用你的修改，创建 Machine 模板 {name}',
  },
  'plan.step.createBootstrapTemplate': {
    en: 'Create bootstrap template {name}',
    'zh-CN': '创建 Bootstrap 模板 {name}',
  },
  'plan.step.cloneBootstrapTemplate': {
    en: 'Create bootstrap template {name} as a copy of {from} with your changes',
    'zh-CN': '以 {from} 为副本并应用你的修改，创建 Bootstrap 模板 {name}',
  },
  'plan.step.createMachineDeployment': {
    en: 'Create MachineDeployment {name} with {replicas, plural, one {# replica} other {# replicas}} of Kubernetes {version}',
    'zh-CN': '创建 MachineDeployment {name}：{replicas} 个副本，Kubernetes {version}',
  },
  'plan.step.scale': {
    en: 'Change the replicas of {name} from {from} to {to}',
    'zh-CN': '将 {name} 的副本数从 {from} 调整为 {to}',
  },
  'plan.step.editStrategy': {
    en: 'Set the rollout settings of {name}: {changes}',
    'zh-CN': '修改 {name} 的滚动更新设置：{changes}',
  },
  'plan.step.editControlPlaneConfig': {
    en: 'Change the kubeadm config of control plane {name}: {fields}',
    'zh-CN': '修改控制平面 {name} 的 kubeadm 配置：{fields}',
  },
  'plan.step.markMachine': {
    en: 'Mark machine {name} for deletion',
    'zh-CN': '将 machine {name} 标记为待删除',
  },
  'plan.step.scaleDownMarked': {
    en: 'Lower the replicas of {name} from {from} to {to}, exactly the {count, plural, one {marked machine} other {# marked machines}}',
    'zh-CN': '将 {name} 的副本数从 {from} 减少到 {to}，恰好减少已标记的 {count} 台 machine',
  },
  'plan.step.switchMachineTemplate': {
    en: 'Point {name} at machine template {template} (was {from})',
    'zh-CN': '将 {name} 指向 Machine 模板 {template}（原为 {from}）',
  },
  'plan.step.switchBootstrapTemplate': {
    en: 'Point {name} at bootstrap template {template} (was {from})',
    'zh-CN': '将 {name} 指向 Bootstrap 模板 {template}（原为 {from}）',
  },
  'plan.step.upgradeWorkers': {
    en: 'Upgrade {name} from {from} to {to}: machine template {template}, in one change',
    'zh-CN': '将 {name} 从 {from} 升级到 {to}：一次性切换到 Machine 模板 {template}',
  },
  'plan.step.upgradeWorkersWithBootstrap': {
    en: 'Upgrade {name} from {from} to {to}: machine template {template} and bootstrap template {bootstrap}, in one change',
    'zh-CN':
      '将 {name} 从 {from} 升级到 {to}：一次性切换到 Machine 模板 {template} 和 Bootstrap 模板 {bootstrap}',
  },
  'plan.step.upgradeControlPlane': {
    en: 'Upgrade control plane {name} from {from} to {to} with machine template {template}, in one change',
    'zh-CN': '将控制平面 {name} 从 {from} 升级到 {to}：一次性切换到 Machine 模板 {template}',
  },
  'plan.step.deleteMachineDeployment': {
    en: 'Delete MachineDeployment {name}; {count, plural, =0 {it has no machines} one {its machine is drained and deleted} other {its # machines are drained and deleted}}. This cannot be undone',
    'zh-CN':
      '删除 MachineDeployment {name}；其 {count} 台 machine 将被 drain 并删除。此操作无法撤销',
  },
  'plan.step.deleteMachineTemplate': {
    en: 'Delete machine template {name}, used by no other pool',
    'zh-CN': '删除不再被其他节点池使用的 Machine 模板 {name}',
  },
  'plan.step.deleteBootstrapTemplate': {
    en: 'Delete bootstrap template {name}, used by no other pool',
    'zh-CN': '删除不再被其他节点池使用的 Bootstrap 模板 {name}',
  },
  'plan.step.deleteEarlierMachineTemplate': {
    en: 'Delete machine template {name}, left from an earlier revision of {pool} and used by nothing else',
    'zh-CN': '删除 {pool} 早期版本遗留、且不再被任何对象使用的 Machine 模板 {name}',
  },
  'plan.step.deleteEarlierBootstrapTemplate': {
    en: 'Delete bootstrap template {name}, left from an earlier revision of {pool} and used by nothing else',
    'zh-CN': '删除 {pool} 早期版本遗留、且不再被任何对象使用的 Bootstrap 模板 {name}',
  },
  'plan.step.deleteIpPool': {
    en: 'Delete IP pool {name}, used by no other pool, once the machines of {pool} are gone',
    'zh-CN': '待 {pool} 的 machine 全部删除后，删除不再被其他节点池使用的 IP 池 {name}',
  },
  'plan.undo.delete': {
    en: 'Delete {kind} {name}, created by this operation',
    'zh-CN': '删除本操作创建的 {kind} {name}',
  },
  'plan.undo.revert': {
    en: 'Revert the change to {kind} {name}',
    'zh-CN': '撤销对 {kind} {name} 的修改',
  },
  'plan.undo.unmarkMachine': {
    en: 'Remove the deletion mark from machine {name}',
    'zh-CN': '移除 machine {name} 上的删除标记',
  },
  'plan.irreversible.delete': {
    en: 'Deleting {kind} {name} cannot be undone',
    'zh-CN': '删除 {kind} {name} 无法撤销',
  },
  'plan.effect.randomScaleDown': {
    en: 'Cluster API picks {count, plural, one {# machine} other {# machines}} of {name}, drains {count, plural, one {it and deletes its VM} other {them and deletes their VMs}}',
    'zh-CN': 'Cluster API 将从 {name} 中选择 {count} 台 machine，对其执行 drain 并删除其 VM',
  },
  'plan.effect.rollout': {
    en: 'A rolling update replaces {replaces, plural, one {# machine} other {# machines}}, at most {atATime} at a time',
    'zh-CN': '滚动更新将替换 {replaces} 台 machine，每次最多 {atATime} 台',
  },
  'plan.effect.strategyInPlace': {
    en: 'No machine is replaced: Cluster API applies rollout settings and node timeouts in place, to the MachineDeployment and to its MachineSets and Machines',
    'zh-CN':
      '不会替换任何 machine：Cluster API 会就地应用滚动更新设置和节点超时，作用于该 MachineDeployment 及其 MachineSet 和 Machine',
  },
  'plan.effect.rolloutContinuesWithStrategy': {
    en: 'A rolling update of {name} is in progress ({updated} of {replicas, plural, one {# machine} other {# machines}} updated): it goes on with the new settings from its next step, replacing at most {atATime} at a time (was {before}). Machines already being created or deleted are not stopped',
    'zh-CN':
      '{name} 正在进行滚动更新（已更新 {updated}/{replicas} 台 machine）：从下一步起按新设置继续，每次最多替换 {atATime} 台（原为 {before} 台）。已在创建或删除中的 machine 不会被中止',
  },
  'plan.effect.nextRolloutPace': {
    en: 'The next rolling update of {name} replaces at most {atATime} at a time (was {before})',
    'zh-CN': '{name} 的下一次滚动更新每次最多替换 {atATime} 台 machine（原为 {before} 台）',
  },
  'plan.effect.surgeZeroOneFewer': {
    en: 'With maxSurge 0 each old machine is deleted before its replacement is created: the pool runs with fewer machines during a rolling update, and fixed IP slots and persistent disks move node by node (R-MD-3)',
    'zh-CN':
      'maxSurge 为 0 时，每台旧 machine 会先被删除，再创建替换它的 machine：滚动更新期间节点池的 machine 会少于副本数，固定 IP 槽位和持久磁盘逐个节点迁移（R-MD-3）',
  },
  'plan.effect.strategyFieldsRemoved': {
    en: '{fields}: removed from {name}, so Cluster API’s defaults apply again (maxSurge 1, maxUnavailable 0, nodeDeletionTimeout 10s; nodeDrainTimeout and nodeVolumeDetachTimeout: no limit)',
    'zh-CN':
      '{fields}：从 {name} 中移除，Cluster API 的默认值重新生效（maxSurge 1，maxUnavailable 0，nodeDeletionTimeout 10 秒；nodeDrainTimeout 和 nodeVolumeDetachTimeout：不限时）',
  },
  'plan.effect.timeoutsInFlight': {
    en: 'Machines of {name} that are already draining or being deleted take the new timeouts too: Cluster API copies them to the existing Machines',
    'zh-CN':
      '{name} 中已在驱逐或删除中的 machine 同样采用新的超时：Cluster API 会把它们同步到现有的 Machine',
  },
  'plan.effect.persistentDisksMove': {
    en: 'Persistent disks of the IP pool are detached from each old VM and attached to its replacement',
    'zh-CN': 'IP 池中声明的持久磁盘将从每台旧 VM 上卸载，并挂载到替换它的 VM 上',
  },
  'plan.effect.bootstrapNewMachinesOnly': {
    en: 'Editing a bootstrap template in place changes only new machines; this plan switches to a copy so that every machine is replaced (R-BOOT-3)',
    'zh-CN':
      '直接修改 Bootstrap 模板只会影响新 machine；本计划改为切换到其副本，以便替换每一台 machine（R-BOOT-3）',
  },
  'plan.effect.nicNotHotUpdated': {
    en: 'Extra NICs apply only when a VM is created: running VMs keep theirs until replaced (R-NIC-2)',
    'zh-CN': '额外 NIC 仅在创建 VM 时生效：运行中的 VM 在被替换之前保持原有 NIC（R-NIC-2）',
  },
  'plan.effect.diskAttachedNotMounted': {
    en: 'A disk appended to a running VM is attached on DCS but formatted and mounted only when the VM is replaced (R-DISK-6)',
    'zh-CN':
      '追加到运行中 VM 的磁盘会在 DCS 侧连接，但只有在该 VM 被替换后才会在来宾系统内格式化并挂载（R-DISK-6）',
  },
  'plan.effect.volumesKept': {
    en: 'Volumes already created for the persistent disks of removed entries stay on DCS (R-POOL-6)',
    'zh-CN': '已删除条目的持久磁盘所对应的卷仍保留在 DCS 上（R-POOL-6）',
  },
  'plan.effect.vmTemplateFromCatalog': {
    en: 'The new machine template uses VM template {vmTemplate}, which carries Kubernetes {version} in the versions catalog (R-MD-4), instead of {requested}',
    'zh-CN':
      '新 Machine 模板使用版本目录中承载 Kubernetes {version} 的 VM 模板 {vmTemplate}（R-MD-4），而不是 {requested}',
  },
  'plan.effect.controlPlaneKubeletPatch': {
    en: 'The control plane’s kubelet patch is set for Kubernetes {version} in the same change (R-BOOT-1: imagePullCredentialsVerificationPolicy NeverVerify from 1.35 on, absent before)',
    'zh-CN':
      '控制平面的 kubelet patch 在同一变更中按 Kubernetes {version} 设置（R-BOOT-1：1.35 起 imagePullCredentialsVerificationPolicy 为 NeverVerify，之前的版本不含该字段）',
  },
  'plan.effect.controlPlaneConfigRolls': {
    en: 'A rolling change of the control plane: KubeadmControlPlane {name} replaces each of its {replicas, plural, one {# machine} other {# machines}} with one bootstrapped from the new kubeadm config, one at a time (a new machine first, then the oldest outdated one is deleted, keeping the etcd quorum). Unlike a worker pool’s bootstrap template (R-BOOT-3), the control plane’s config is compared with every machine',
    'zh-CN':
      '控制平面的滚动变更：KubeadmControlPlane {name} 会用按新 kubeadm 配置引导的 machine 逐台替换其 {replicas} 台 machine（先创建一台新 machine，再删除最旧的过期 machine，保持 etcd 法定人数）。与工作节点池的 Bootstrap 模板（R-BOOT-3）不同，控制平面的配置会与每台 machine 比较',
  },
  'plan.effect.controlPlaneRolloutRestarts': {
    en: 'A rolling update of {name} is in progress: machines it has already created from the previous config are outdated too and will be replaced again',
    'zh-CN': '{name} 正在进行滚动更新：已按之前配置创建的 machine 同样会过期，并将再次被替换',
  },
  'plan.effect.controlPlaneFirst': {
    en: 'Worker pools may follow once the control plane runs {version} (R-MD-4)',
    'zh-CN': '控制平面运行 {version} 后，工作节点池即可跟进升级（R-MD-4）',
  },
  'plan.migration.readOnly': {
    en: 'This plan is guidance and is not applied as one change: only maxSurge 0 is harmless to undo; appending the disks creates DCS volumes that can never be removed from the pool (R-DISK-2), and the rolling update deletes each VM’s legacy /var/cpaas disk with its data. Run each step through its own operation, which previews its own plan',
    'zh-CN':
      '本计划仅作指导，不会作为一次变更执行：只有 maxSurge 0 可以无害撤销；追加磁盘会在 DCS 上创建卷，且永远无法从池中移除（R-DISK-2）；滚动更新会删除每台 VM 旧布局中的 /var/cpaas 磁盘及其数据。请通过各步骤对应的操作逐一执行，每个操作都会预览自己的计划',
  },
  'plan.migration.provider': {
    en: 'DCS provider {version} is at least {min}, which pool-managed persistent disks need (R-VER-2)',
    'zh-CN': 'DCS provider {version} 不低于由池管理的持久磁盘所需的 {min}（R-VER-2）',
  },
  'plan.migration.providerTooOld': {
    en: 'Upgrade the DCS provider from {version} to {min} or later: pool-managed persistent disks need it, and until then the template’s /var/cpaas is the layout this provider supports (R-VER-2)',
    'zh-CN':
      '将 DCS provider 从 {version} 升级到 {min} 或更高版本：由池管理的持久磁盘需要该版本；在此之前，模板中的 /var/cpaas 是此 provider 支持的布局（R-VER-2）',
  },
  'plan.migration.maxSurge': {
    en: 'Set maxSurge of {name} to 0 (now {from}), so that machines are replaced one at a time and each fixed IP slot and its disk move together (R-MD-3)',
    'zh-CN':
      '将 {name} 的 maxSurge 设为 0（当前为 {from}），使 machine 逐台替换，每个固定 IP 槽位与其磁盘一起迁移（R-MD-3）',
  },
  'plan.migration.appendDisks': {
    en: 'Append a {size} GB persistent disk with path /var/cpaas to {count, plural, =0 {no entry (every entry has one)} one {# entry} other {# entries}} of IP pool {pool}, keeping every other entry and disk as it is (R-POOL-4, R-DISK-1)',
    'zh-CN':
      '为 IP 池 {pool} 的 {count} 个条目追加 path 为 /var/cpaas、大小 {size} GB 的持久磁盘，其余条目和磁盘保持原样（R-POOL-4、R-DISK-1）',
  },
  'plan.migration.volumesCreated': {
    en: 'The provider creates one new, empty, independent persistent volume on DCS for each entry',
    'zh-CN': 'provider 会在 DCS 上为每个条目创建一个新的、空的独立持久卷',
  },
  'plan.migration.appendIrreversible': {
    en: 'Persistent disks cannot be removed from the pool once appended (R-DISK-2)',
    'zh-CN': '持久磁盘一旦追加就无法从池中移除（R-DISK-2）',
  },
  'plan.migration.unsettled.bothDisks': {
    en: 'Not settled by the documents: a VM created between this step and the next (a scale-up, a replaced machine of {name}) gets both the template’s /var/cpaas disk and the pool’s; which one the guest mounts is not said. Do not scale {name} until the next step has rolled it',
    'zh-CN':
      '文档未说明：在本步骤与下一步骤之间创建的 VM（扩容或 {name} 中被替换的 machine）会同时拥有模板中的 /var/cpaas 磁盘和池中的持久磁盘，来宾系统挂载哪一个并无说明。在下一步完成滚动更新之前，请勿对 {name} 扩缩容',
  },
  'plan.migration.switchTemplate': {
    en: 'Create machine template {template} as a copy of {from} without the /var/cpaas disk (R-TPL-4), and switch {name} to it: a rolling update',
    'zh-CN':
      '以 {from} 为副本创建不含 /var/cpaas 磁盘的 Machine 模板 {template}（R-TPL-4），并将 {name} 切换到该模板：触发滚动更新',
  },
  'plan.migration.rolling': {
    en: 'Each of the {replicas, plural, one {# machine} other {# machines}} is replaced one at a time: the old machine is drained and its VM deleted, then a VM is created on the same IP slot',
    'zh-CN':
      '{replicas} 台 machine 逐台替换：旧 machine 先被驱逐，其 VM 被删除，然后在同一 IP 槽位上创建新 VM',
  },
  'plan.migration.dataOnReplacedVm': {
    en: 'Data on each replaced VM: its system disk and template disks (/var/lib/kubelet, /var/lib/containerd and the legacy /var/cpaas) are deleted with the VM; what was in /var/cpaas is not copied anywhere',
    'zh-CN':
      '被替换 VM 上的数据：其系统盘和模板磁盘（/var/lib/kubelet、/var/lib/containerd 以及旧布局的 /var/cpaas）随 VM 一起删除；/var/cpaas 中原有的内容不会被复制到任何地方',
  },
  'plan.migration.newDiskFormatted': {
    en: 'On the replacement, the pool’s /var/cpaas volume has no filesystem yet: the guest’s disk setup formats it and mounts it at /var/cpaas. From then on it is kept across replacements: a formatted disk is mounted without mkfs',
    'zh-CN':
      '在替换的 VM 上，池中的 /var/cpaas 卷尚无文件系统：来宾磁盘设置流程会将其格式化并挂载到 /var/cpaas。此后它会在替换之间保留：已格式化的磁盘将直接挂载，不会再次格式化',
  },
  'plan.migration.unsettled.data': {
    en: 'Not settled by the documents: whether the platform needs the old contents of /var/cpaas on the new disk. The console copies nothing; back up /var/cpaas of each node first if you need it',
    'zh-CN':
      '文档未说明：平台是否需要把 /var/cpaas 的旧内容迁移到新磁盘。控制台不会复制任何数据；如有需要，请先备份每个节点的 /var/cpaas',
  },
  'plan.migration.unsettled.reuse': {
    en: 'Not settled by the documents: how to make the pool reuse a VM’s existing /var/cpaas volume instead of a new one (they say only that a reused volume must be independent and persistent). This plan creates new volumes',
    'zh-CN':
      '文档未说明：如何让池复用 VM 现有的 /var/cpaas 卷而不是新建卷（文档只说明复用的卷须为独立且持久的卷）。本计划会新建卷',
  },
  'plan.migration.verify': {
    en: 'Check that every machine of {name} is Running with a Ready node and that IP pool {pool} reports each persistent disk attached (status.persistentDiskStatus)',
    'zh-CN':
      '检查 {name} 的每台 machine 都处于 Running 且节点就绪，并确认 IP 池 {pool} 报告每个持久磁盘均已挂载（status.persistentDiskStatus）',
  },
  'plan.verdict.alone': {
    en: 'Judged alone: {count, plural, one {step {steps} changes} other {steps {steps} change}} this object first, which a dry run cannot carry over. Apply judges it again just before its write',
    'zh-CN':
      '单独预检：前面的 {count} 个步骤（{steps}）会先修改此对象，而试运行（dry run）无法承接前一步的结果。执行时会在写入前再次预检',
  },
  'plan.verdict.notYetCreated': {
    en: '{kind} {name} does not exist until step {step} creates it, so the server can judge this step only then: Apply does, just before its write',
    'zh-CN':
      '{kind} {name} 在步骤 {step} 创建之前并不存在，因此服务器只能在那之后预检此步骤：执行时会在写入前预检',
  },
  'plan.verdict.afterWait': {
    en: 'Runs once {kind} {name} is deleted; judged against the current state, and again just before its write',
    'zh-CN': '在 {kind} {name} 删除后执行；已按当前状态预检，写入前会再次预检',
  },
  'plan.issue.poolChanged': {
    en: 'IP pool {name} changed since you loaded it (resourceVersion {seen} → {current}): your changes are applied to its current entries. Review the preview before applying',
    'zh-CN':
      'IP 池 {name} 在你加载之后已被修改（resourceVersion {seen} → {current}）：你的修改将应用到其当前条目上。执行前请检查预览',
  },
  'plan.issue.poolMerged': {
    en: 'IP pool {name} was changed by someone else since you loaded it (resourceVersion {seen} → {current}). Their change is kept and yours is applied on top of it: entries they added: {added}; removed: {removed}; changed: {changed}',
    'zh-CN':
      'IP 池 {name} 在你加载之后已被他人修改（resourceVersion {seen} → {current}）。其修改已保留，你的修改在此基础上应用：对方添加的条目：{added}；删除的条目：{removed}；修改的条目：{changed}',
  },
  'plan.issue.stale': {
    en: '{kind} {name} changed since you loaded it (you saw version {seen}, it is now {current}): reload and review',
    'zh-CN':
      '{kind} {name} 在你加载之后已被修改（你看到的版本为 {seen}，当前为 {current}）：请重新加载并检查',
  },
  'plan.issue.jsonDepth': {
    en: '{field} of {object} nests deeper than {limit} levels: the console writes and edits no JSON past that bound',
    'zh-CN': '{object} 的 {field} 嵌套超过 {limit} 层：控制台不写入、也不编辑超出此上限的 JSON',
  },
  'plan.issue.jsonString': {
    en: '{field} of {object} is a string longer than {limit} characters: the console writes and edits no JSON past that bound',
    'zh-CN':
      '{object} 的 {field} 是长度超过 {limit} 个字符的字符串：控制台不写入、也不编辑超出此上限的 JSON',
  },
  'plan.issue.jsonSize': {
    en: '{object} is larger than {limit} bytes of JSON: the console writes and edits no JSON past that bound',
    'zh-CN': '{object} 超过 {limit} 字节的 JSON：控制台不写入、也不编辑超出此上限的 JSON',
  },
  'plan.issue.notFound': {
    en: '{kind} {name} was not found',
    'zh-CN': '未找到 {kind} {name}',
  },
  'plan.issue.inUse': {
    en: '{kind} {name} is still used by {users}: it is kept',
    'zh-CN': '{kind} {name} 仍被 {users} 使用：将保留该对象',
  },
  'plan.effect.nothingToChange': {
    en: 'Nothing to change: {name} already has these settings',
    'zh-CN': '无需修改：{name} 已经是这些设置',
  },
  'plan.issue.entryNotFound': {
    en: 'IP pool {pool} has no entry with ip {ip}',
    'zh-CN': 'IP 池 {pool} 中没有 ip 为 {ip} 的条目',
  },
  /* O-PAUSE / O-RESUME (issue 26) and R-PAUSE-1..3 */
  'plan.step.pauseCluster': {
    en: 'Pause cluster {name}: set spec.paused to true',
    'zh-CN': '暂停集群 {name}：将 spec.paused 设为 true',
  },
  'plan.step.resumeCluster': {
    en: 'Resume cluster {name}: remove spec.paused',
    'zh-CN': '恢复集群 {name}：移除 spec.paused',
  },
  'plan.step.pauseObject': {
    en: 'Pause {kind} {name}: add the cluster.x-k8s.io/paused annotation',
    'zh-CN': '暂停 {kind} {name}：添加 cluster.x-k8s.io/paused 注解',
  },
  'plan.step.resumeObject': {
    en: 'Resume {kind} {name}: remove the cluster.x-k8s.io/paused annotation',
    'zh-CN': '恢复 {kind} {name}：移除 cluster.x-k8s.io/paused 注解',
  },
  'plan.effect.pauseCluster': {
    en: 'Cluster API stops reconciling cluster {name} and every object of it (the control plane, {pools, plural, one {# worker pool} other {# worker pools}}, their MachineSets, Machines and DCS machines): no machine is created, replaced or deleted, and no scale, upgrade or deletion progresses until the cluster is resumed. Running machines and their nodes keep running.',
    'zh-CN':
      'Cluster API 将停止协调集群 {name} 及其所有对象（控制平面、{pools} 个工作节点池及其 MachineSet、Machine 和 DCS machine）：在集群恢复之前，不会创建、替换或删除任何 machine，扩缩容、升级和删除都不会推进。正在运行的 machine 及其节点继续运行。',
  },
  'plan.effect.pauseMachineDeployment': {
    en: 'Cluster API stops reconciling MachineDeployment {name}: a change of its replicas, template or rollout settings is not carried to its MachineSets until it is resumed. Its MachineSets and Machines are still reconciled: machines already being created or deleted finish.',
    'zh-CN':
      'Cluster API 将停止协调 MachineDeployment {name}：在恢复之前，对其副本数、模板或滚动更新设置的修改不会同步到其 MachineSet。其 MachineSet 和 Machine 仍会被协调：正在创建或删除的 machine 会完成。',
  },
  'plan.effect.pauseControlPlane': {
    en: 'Cluster API stops reconciling KubeadmControlPlane {name}: no control-plane machine is created, replaced or deleted, and an upgrade or a change of its kubeadm config does not progress, until it is resumed. Its Machines are still reconciled.',
    'zh-CN':
      'Cluster API 将停止协调 KubeadmControlPlane {name}：在恢复之前，不会创建、替换或删除任何控制平面 machine，升级或 kubeadm 配置的修改也不会推进。其 Machine 仍会被协调。',
  },
  'plan.effect.stopsMidway': {
    en: '{kind} {name} is changing now ({current} of {desired} machines as wanted): the change stops where it is and goes on once it is resumed',
    'zh-CN':
      '{kind} {name} 正在变更中（{desired} 台 machine 中已有 {current} 台符合期望）：变更将停在当前位置，恢复后继续',
  },
  'plan.effect.resumeCluster': {
    en: 'Cluster API reconciles cluster {name} and its objects again: what was changed while it was paused is carried out now',
    'zh-CN': 'Cluster API 将重新协调集群 {name} 及其对象：暂停期间所做的修改将立即执行',
  },
  'plan.effect.resumeObject': {
    en: 'Cluster API reconciles {kind} {name} again: what was changed while it was paused is carried out now',
    'zh-CN': 'Cluster API 将重新协调 {kind} {name}：暂停期间所做的修改将立即执行',
  },
  'plan.effect.pendingChange': {
    en: '{kind} {name} was changed while paused (generation {generation}, last reconciled at {observed}): the change is carried out now',
    'zh-CN':
      '{kind} {name} 在暂停期间被修改（generation {generation}，上次协调于 {observed}）：该修改将立即执行',
  },
  'plan.effect.alsoPausedByCluster': {
    en: '{kind} {name} is already paused through cluster {cluster} (spec.paused); the annotation keeps it paused after the cluster is resumed',
    'zh-CN':
      '{kind} {name} 已因集群 {cluster} 暂停（spec.paused）；该注解会在集群恢复后继续保持其暂停',
  },
  'plan.effect.alreadyPaused': {
    en: 'Nothing to change: {kind} {name} is already paused',
    'zh-CN': '无需修改：{kind} {name} 已处于暂停状态',
  },
  'plan.effect.notPaused': {
    en: 'Nothing to change: {kind} {name} is not paused',
    'zh-CN': '无需修改：{kind} {name} 未被暂停',
  },
  'plan.issue.pausedCluster': {
    en: 'Cluster {cluster} is paused (spec.paused): Cluster API reconciles none of its objects, so this change is written but nothing happens (no machine is created, replaced or deleted) until the cluster is resumed',
    'zh-CN':
      '集群 {cluster} 已暂停（spec.paused）：Cluster API 不会协调其任何对象，因此该修改会被写入，但在集群恢复之前不会产生任何效果（不会创建、替换或删除 machine）',
  },
  'plan.issue.pausedObject': {
    en: '{kind} {name} is paused (cluster.x-k8s.io/paused annotation): Cluster API does not reconcile it, so this change is written but nothing happens until it is resumed',
    'zh-CN':
      '{kind} {name} 已暂停（cluster.x-k8s.io/paused 注解）：Cluster API 不会协调它，因此该修改会被写入，但在恢复之前不会产生任何效果',
  },
  'plan.issue.clusterStillPaused': {
    en: 'Cluster {cluster} is paused (spec.paused): {kind} {name} stays paused until the cluster is resumed too',
    'zh-CN': '集群 {cluster} 已暂停（spec.paused）：在集群也恢复之前，{kind} {name} 仍保持暂停',
  },
  'plan.issue.pauseWhileDeleting': {
    en: '{kind} {name} is being deleted: while it is paused its deletion stops where it is (machines are not drained or removed, its finalizer stays) until it is resumed',
    'zh-CN':
      '{kind} {name} 正在被删除：暂停期间其删除将停在当前位置（machine 不会被驱逐或移除，finalizer 保留），直到恢复',
  },
  /* O-AUTOSCALE / O-AUTOSCALE-REMOVE (issue 26 item 2) */
  'plan.step.autoscaleSet': {
    en: 'Set the cluster autoscaler’s bounds of {name}: {changes}',
    'zh-CN': '设置 {name} 的 cluster-autoscaler 边界：{changes}',
  },
  'plan.step.autoscaleRemove': {
    en: 'Remove the cluster autoscaler’s bounds of {name}: the node-group-min-size and node-group-max-size annotations',
    'zh-CN':
      '移除 {name} 的 cluster-autoscaler 边界：node-group-min-size 和 node-group-max-size 注解',
  },
  'plan.effect.autoscaleSet': {
    en: 'The cluster autoscaler manages {name} between {min} and {max, plural, one {# replica} other {# replicas}} from now (where it runs for this cluster with the clusterapi provider): it raises spec.replicas when pods cannot be scheduled and lowers it when nodes are unneeded. A manual scale within the bounds may be changed again by it.',
    'zh-CN':
      '从现在起 cluster-autoscaler 将在 {min} 到 {max} 个副本之间管理 {name}（前提是该集群运行了使用 clusterapi provider 的 cluster-autoscaler）：有 Pod 无法调度时它会提高 spec.replicas，节点不再需要时会降低它。在边界内的手动伸缩可能会被它再次修改。',
  },
  'plan.effect.autoscaleChanged': {
    en: 'The cluster autoscaler manages {name} between {min} and {max, plural, one {# replica} other {# replicas}} from its next scan on (it reads the annotations anew each time)',
    'zh-CN':
      '从下一次扫描起，cluster-autoscaler 将在 {min} 到 {max} 个副本之间管理 {name}（它每次都会重新读取注解）',
  },
  'plan.effect.autoscaleReplicasMoved': {
    en: 'replicas of {name} go from {from} to {to} in the same change, within the bounds, so that the autoscaler takes the pool over',
    'zh-CN':
      '{name} 的副本数在同一变更中从 {from} 改为 {to}，落在边界之内，以便 cluster-autoscaler 接管该节点池',
  },
  'plan.effect.autoscaleRemoved': {
    en: 'The cluster autoscaler stops managing {name}: its replicas stay at {replicas} and change only when someone scales the pool',
    'zh-CN':
      'cluster-autoscaler 将不再管理 {name}：其副本数保持为 {replicas}，只有手动伸缩时才会改变',
  },
  'plan.effect.autoscaleUnchanged': {
    en: 'Nothing to change: {name} already has these bounds',
    'zh-CN': '无需修改：{name} 已经是这些边界',
  },
  'plan.effect.autoscaleNone': {
    en: 'Nothing to change: {name} has no cluster autoscaler bounds',
    'zh-CN': '无需修改：{name} 没有 cluster-autoscaler 边界',
  },
  /* O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE (issue 26 item 1) */
  'plan.step.healthCheckCreate': {
    en: 'Create MachineHealthCheck {name} for the machines of {pool}: unhealthy when {conditions}; {limit}',
    'zh-CN':
      '为 {pool} 的 machine 创建 MachineHealthCheck {name}：不健康条件 {conditions}；{limit}',
  },
  'plan.step.healthCheckEdit': {
    en: 'Change MachineHealthCheck {name}: unhealthy when {conditions}; {limit}',
    'zh-CN': '修改 MachineHealthCheck {name}：不健康条件 {conditions}；{limit}',
  },
  'plan.step.healthCheckDelete': {
    en: 'Delete MachineHealthCheck {name} of {pool}',
    'zh-CN': '删除 {pool} 的 MachineHealthCheck {name}',
  },
  'plan.effect.healthCheckWatches': {
    en: 'Cluster API checks every machine of {pool}: one whose Node holds {conditions} past the timeout, or that has no Node {startup} after it was created, is marked unhealthy (HealthCheckSucceeded False)',
    'zh-CN':
      'Cluster API 将检查 {pool} 的每台 machine：其 Node 的条件 {conditions} 持续超过超时，或创建 {startup} 后仍没有 Node 的 machine 会被标记为不健康（HealthCheckSucceeded 为 False）',
  },
  'plan.effect.healthCheckNoLimit': {
    en: 'Every unhealthy machine of {pool} is remediated: its MachineSet deletes it and creates a replacement',
    'zh-CN': '{pool} 中每台不健康的 machine 都会被修复：其 MachineSet 会删除它并创建替代的 machine',
  },
  'plan.effect.healthCheckLimit': {
    en: 'Unhealthy machines of {pool} are remediated (deleted and replaced by their MachineSet) only while {limit} holds; past it remediation is held back (RemediationAllowed False)',
    'zh-CN':
      '只有在满足 {limit} 时，{pool} 中不健康的 machine 才会被修复（由其 MachineSet 删除并替换）；超出时暂停修复（RemediationAllowed 为 False）',
  },
  'plan.effect.healthCheckUnchanged': {
    en: 'Nothing to change: MachineHealthCheck {name} already checks this',
    'zh-CN': '无需修改：MachineHealthCheck {name} 已按此检查',
  },
  'plan.effect.healthCheckRemoved': {
    en: 'The machines of {pool} are no longer checked: an unhealthy one stays until someone replaces it',
    'zh-CN': '{pool} 的 machine 将不再被检查：不健康的 machine 会一直保留，直到有人替换它',
  },
  /* O-RESTART (issue 26 item 4) and R-RESTART-1..6 */
  'plan.step.restart': {
    en: 'Restart {kind} {name}: set its rolloutAfter to {time}',
    'zh-CN': '重启 {kind} {name}：将其 rolloutAfter 设为 {time}',
  },
  'plan.step.restartScheduled': {
    en: 'Schedule a restart of {kind} {name}: set its rolloutAfter to {time}',
    'zh-CN': '计划重启 {kind} {name}：将其 rolloutAfter 设为 {time}',
  },
  'plan.effect.restartNow': {
    en: 'Cluster API replaces {count, plural, one {the # machine} other {each of the # machines}} of {name} created before {time} with a new one, in the order below; nothing else of the pool changes',
    'zh-CN':
      'Cluster API 将按下列顺序，用新 machine 逐一替换 {name} 在 {time} 之前创建的 {count} 台 machine；节点池的其他内容不变',
  },
  'plan.effect.restartScheduled': {
    en: 'Nothing happens until {time}. Then Cluster API replaces every machine of {name} created before it: those listed below, and any created meanwhile (a scale-up, the replacements of an upgrade). A change of its template before then rolls the machines at once, as any upgrade does',
    'zh-CN':
      '在 {time} 之前不会发生任何变化。届时 Cluster API 会替换 {name} 在该时间之前创建的每台 machine：包括下列 machine，以及在此期间创建的 machine（扩容或升级替换出的 machine）。在此之前修改其模板会像任何升级一样立即滚动更新 machine',
  },
  'plan.effect.restartClockNow': {
    en: '{time} is the console server’s clock, not your browser’s: Apply sets rolloutAfter from that clock again at the moment it writes. Cluster API compares it with the management cluster’s clock: if that clock is behind the console’s, the restart starts that much later',
    'zh-CN':
      '{time} 取自控制台服务器的时钟，而不是你的浏览器：执行时会在写入那一刻再次按该时钟设置 rolloutAfter。Cluster API 会将其与管理集群的时钟比较：如果管理集群的时钟比控制台慢，重启会相应推迟开始',
  },
  'plan.effect.restartClockScheduled': {
    en: 'Cluster API starts the restart when the management cluster’s clock passes {time}, not the console’s ({now} now) or your browser’s: a clock that is off moves the start by as much',
    'zh-CN':
      '当管理集群的时钟越过 {time} 时，Cluster API 开始重启；依据的不是控制台的时钟（当前为 {now}），也不是你的浏览器：时钟偏差多少，开始时间就偏移多少',
  },
  'plan.effect.restartAlreadyScheduled': {
    en: 'Nothing to change: a restart of {kind} {name} is already set for {time}',
    'zh-CN': '无需修改：{kind} {name} 的重启已设定在 {time}',
  },
  'plan.effect.restartOrderRolling': {
    en: 'Under maxSurge {maxSurge} and maxUnavailable {maxUnavailable}: {surge, plural, =0 {never more than {replicas} machines} one {at most # machine above {replicas}} other {at most # machines above {replicas}}} and {unavailable, plural, =0 {none unavailable} other {at most # unavailable}} at a time; each step waits for the new machines of the one before to be available',
    'zh-CN':
      '按 maxSurge {maxSurge}、maxUnavailable {maxUnavailable}：{surge, plural, =0 {同一时间 machine 总数不超过 {replicas} 台} other {同一时间最多比 {replicas} 多 # 台 machine}}，{unavailable, plural, =0 {不允许有 machine 不可用} other {最多 # 台不可用}}；每一步都会等待上一步的新 machine 可用',
  },
  'plan.effect.restartPickRandom': {
    en: 'Which old machine goes in each step is Cluster API’s choice (deletion order Random): machines marked for deletion or not healthy go first; the others are listed by name',
    'zh-CN':
      '每一步删除哪台旧 machine 由 Cluster API 决定（删除顺序 Random）：已标记删除或不健康的 machine 优先；其余按名称列出',
  },
  'plan.effect.restartPickOldest': {
    en: 'Old machines go oldest first (deletion order Oldest), machines marked for deletion or not healthy before them',
    'zh-CN':
      '旧 machine 按创建时间从早到晚删除（删除顺序 Oldest），已标记删除或不健康的 machine 优先',
  },
  'plan.effect.restartPickNewest': {
    en: 'Old machines go newest first (deletion order Newest), machines marked for deletion or not healthy before them',
    'zh-CN':
      '旧 machine 按创建时间从晚到早删除（删除顺序 Newest），已标记删除或不健康的 machine 优先',
  },
  'plan.effect.restartControlPlaneSurge': {
    en: 'One machine at a time, the oldest first: a new control-plane machine joins (etcd grows to {surge} members), then an old one is removed, so that {name} keeps {replicas} machines and etcd its quorum throughout',
    'zh-CN':
      '逐台替换，最旧的优先：先加入一台新的控制平面 machine（etcd 增至 {surge} 个成员），再移除一台旧 machine，使 {name} 始终保持 {replicas} 台 machine，etcd 始终保持法定人数',
  },
  'plan.effect.restartControlPlaneNoSurge': {
    en: 'One machine at a time, the oldest first: it is removed before its replacement joins (maxSurge 0), so {name} runs on {during} machines during each replacement',
    'zh-CN':
      '逐台替换，最旧的优先：先移除旧 machine，再加入替换的 machine（maxSurge 0），因此每次替换期间 {name} 只有 {during} 台 machine 运行',
  },
  'plan.issue.restartNoMachines': {
    en: '{kind} {name} has no machines (replicas 0): there is nothing to restart',
    'zh-CN': '{kind} {name} 没有 machine（副本数为 0）：没有可重启的内容',
  },
  'plan.issue.restartDeleting': {
    en: '{kind} {name} is being deleted: it cannot be restarted',
    'zh-CN': '{kind} {name} 正在被删除：无法重启',
  },
  'plan.issue.restartPendingSpec': {
    en: '{kind} {name} has a change its controller has not acted on yet (generation {generation}, last reconciled at {observed}): wait for it to finish, then restart',
    'zh-CN':
      '{kind} {name} 有一项修改尚未被其控制器处理（generation {generation}，上次协调于 {observed}）：请等待其完成后再重启',
  },
  'plan.issue.restartChanging': {
    en: '{kind} {name} is changing now ({updated} of {desired} machines up to date, {current} running, {deleting} being deleted): a restart now would replace the new machines too; wait for it to finish, then restart',
    'zh-CN':
      '{kind} {name} 正在变更中（{desired} 台 machine 中 {updated} 台为最新，{current} 台运行中，{deleting} 台正在删除）：此时重启会把新 machine 也一并替换；请等待其完成后再重启',
  },
  'plan.issue.restartDue': {
    en: 'A restart of {kind} {name} set for {time} is still replacing machines: wait for it to finish',
    'zh-CN': '{kind} {name} 设定在 {time} 的重启仍在替换 machine：请等待其完成',
  },
  'plan.issue.restartTimePast': {
    en: '{time} is not later than the console server’s clock ({now}): to restart at once, choose Restart now',
    'zh-CN': '{time} 不晚于控制台服务器的时钟（{now}）：如需立即重启，请选择“立即重启”',
  },
  'plan.issue.restartReplacesScheduled': {
    en: 'A restart of {kind} {name} is already set for {scheduled}: the object holds one rolloutAfter, so this restart replaces it',
    'zh-CN':
      '{kind} {name} 已设定在 {scheduled} 重启：该对象只保存一个 rolloutAfter，因此本次重启会取代它',
  },
  'plan.issue.restartOnDelete': {
    en: '{name} uses the OnDelete strategy: Cluster API creates the new MachineSet, but replaces each of its {count, plural, one {# machine} other {# machines}} only once someone deletes it',
    'zh-CN':
      '{name} 使用 OnDelete 策略：Cluster API 会创建新的 MachineSet，但只有在有人删除某台 machine 后才会替换它（共 {count} 台）',
  },
  'plan.issue.restartDeploymentPaused': {
    en: 'MachineDeployment {name} has spec.paused set to true: its rollout waits until that is unset (with kubectl: the console’s Resume removes only the cluster.x-k8s.io/paused annotation)',
    'zh-CN':
      'MachineDeployment {name} 的 spec.paused 为 true：其滚动更新会等到该字段被清除（使用 kubectl；控制台的“恢复”只移除 cluster.x-k8s.io/paused 注解）',
  },
} as const satisfies Record<string, MessageText>;

export type PlanMessageKey = keyof typeof catalog;

/** Every text of the planners, by key, in both languages (the shape of `src/i18n`'s catalog). */
export const planCatalog: Record<PlanMessageKey, MessageText> = catalog;

/** The English texts, by key. */
export const planMessages = Object.fromEntries(
  Object.entries(catalog).map(([k, t]) => [k, t.en]),
) as Record<PlanMessageKey, string>;

/** A message with its key, its parameters and its English text. */
export interface PlanMessage {
  messageKey: string;
  params: Record<string, string | number>;
  message: string;
}

export function planMessage(
  messageKey: PlanMessageKey,
  params: Record<string, string | number> = {},
): PlanMessage {
  return { messageKey, params, message: fillMessage(planMessages[messageKey], params, 'en') };
}

/** A plan message in `locale`, from its key and params (the English one as it came otherwise). */
export function localizePlanMessage(m: PlanMessage, locale: Locale): string {
  const text = Object.hasOwn(planCatalog, m.messageKey)
    ? planCatalog[m.messageKey as PlanMessageKey][locale]
    : undefined;
  return text === undefined ? m.message : fillMessage(text, m.params, locale);
}
