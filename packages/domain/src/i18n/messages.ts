/**
 * The texts of every RuleIssue, in English and Simplified Chinese. `{param}` placeholders are
 * filled from the issue's `params`; both languages use the same placeholders (a test checks it).
 * Each text names the field, states the rule and says how to fix it. The Chinese follows the
 * terms of the product's reference document (IP 池, 条目, 持久磁盘, 滚动更新, 副本数, Machine 模板,
 * Bootstrap 模板 …). Keys are `area.what`; the views' catalog uses `view.*`, so the two can merge.
 */

import { fillMessage } from './fill';

export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];
export type MessageParams = Record<string, string | number>;
export interface MessageText {
  en: string;
  'zh-CN': string;
}

const catalog = {
  /* R-POOL-1, R-MD-1: capacity */
  'pool.demandExceedsEntries': {
    en: 'IP pool {pool} has {entries, plural, one {# entry} other {# entries}}, but the MachineDeployments using it need {demand} (the sum of their replicas): {missing, plural, one {# machine} other {# machines}} would wait without an address. Add at least {missing, plural, one {# entry} other {# entries}} to the pool, or lower replicas.',
    'zh-CN':
      'IP 池 {pool} 只有 {entries} 个条目，但使用它的 MachineDeployment 共需要 {demand} 个（副本数之和）：将有 {missing} 台 machine 因没有 IP 地址而一直等待。请向该池添加至少 {missing} 个条目，或减少副本数。',
  },
  'pool.surgeExceedsEntries': {
    en: 'IP pool {pool} has {entries, plural, one {# entry} other {# entries}} for {demand, plural, one {# replica} other {# replicas}} plus up to {surge, plural, one {# extra machine} other {# extra machines}} during a rolling update (maxSurge): the rolling update would wait for addresses. Add {missing, plural, one {# entry} other {# entries}} to the pool, or set maxSurge to 0.',
    'zh-CN':
      'IP 池 {pool} 有 {entries} 个条目，需供 {demand} 个副本使用，滚动更新期间还可能额外创建最多 {surge} 台 machine（maxSurge）：滚动更新将因等待 IP 地址而停滞。请向该池添加 {missing} 个条目，或将 maxSurge 设为 0。',
  },
  'md.replicasExceedPool': {
    en: 'replicas {replicas} is more than IP pool {pool} can serve: of its {entries, plural, one {# entry} other {# entries}}, other node pools need {used}, which leaves room for {available, plural, one {# replica} other {# replicas}}. Lower replicas to {available}, or add {missing, plural, one {# entry} other {# entries}} to the pool first.',
    'zh-CN':
      '副本数 {replicas} 超出了 IP 池 {pool} 可提供的数量：其 {entries} 个条目中，其他节点池需要 {used} 个，只剩下 {available} 个副本的空间。请将副本数降至 {available}，或先向该池添加 {missing} 个条目。',
  },
  'pool.capacityUnknown': {
    en: 'The IP pool of {deployment} was not found, so it cannot be checked that there is an entry for every new machine. Check the pool’s free entries before scaling up.',
    'zh-CN':
      '未找到 {deployment} 使用的 IP 池，因此无法确认池中是否有足够条目供新 machine 使用。扩容前请先检查该池的可用条目。',
  },
  'pool.templateUsesOtherPool': {
    en: 'Machine template {template} takes its addresses from IP pool {templatePool}, not {pool}: its machines would never use {pool}. Choose IP pool {templatePool}, or create a new machine template that names {pool}.',
    'zh-CN':
      'Machine 模板 {template} 从 IP 池 {templatePool} 获取地址，而不是 {pool}：其 machine 不会使用 {pool}。请选择 IP 池 {templatePool}，或新建一个引用 {pool} 的 Machine 模板。',
  },
  'pool.appendToOtherPool': {
    en: 'Entries must be added to IP pool {pool}, the pool that {deployment} uses, not to {name}.',
    'zh-CN': '条目必须添加到 {deployment} 所使用的 IP 池 {pool}，而不是 {name}。',
  },

  /* R-POOL-2: uniqueness */
  'pool.duplicate': {
    en: '{field} {value} appears more than once in these entries: each entry of a pool needs its own {field}.',
    'zh-CN': '{field} {value} 在这些条目中出现了多次：池中每个条目的 {field} 必须唯一。',
  },
  'pool.duplicateOfExisting': {
    en: '{field} {value} is already used by an entry of this IP pool: each entry needs its own {field}. Choose another value.',
    'zh-CN':
      '{field} {value} 已被该 IP 池中的其他条目使用：每个条目的 {field} 必须唯一。请换一个值。',
  },
  'pool.ipInOtherPool': {
    en: 'ip {ip} is already held by IP pool {pool} in this namespace: two machines would get the same address. Choose another ip, or remove it from {pool} first.',
    'zh-CN':
      'ip {ip} 已被同一命名空间中的 IP 池 {pool} 使用：两台 machine 将获得相同的地址。请换一个 ip，或先将其从 {pool} 中移除。',
  },

  /* R-POOL-3: formats */
  'pool.ipInvalid': {
    en: 'ip "{value}" is not an IPv4 address: write four numbers from 0 to 255 separated by dots, such as 10.0.1.11.',
    'zh-CN': 'ip“{value}”不是有效的 IPv4 地址：请填写以点分隔的四个 0–255 的数字，例如 10.0.1.11。',
  },
  'pool.ipNotHostAddress': {
    en: 'ip {ip} is the network or broadcast address of its /{prefix} subnet: choose a host address.',
    'zh-CN': 'ip {ip} 是其 /{prefix} 子网的网络地址或广播地址：请选择一个主机地址。',
  },
  'pool.maskInvalid': {
    en: 'mask "{value}" is not valid: write the CIDR prefix length, a number from 0 to 32 (24 for 255.255.255.0).',
    'zh-CN':
      'mask“{value}”无效：请填写 CIDR 前缀长度，即 0 到 32 之间的数字（255.255.255.0 对应 24）。',
  },
  'pool.maskDottedOnNewEntry': {
    en: 'mask "{value}" is a dotted netmask: new entries write the CIDR prefix length instead. Write {prefix}.',
    'zh-CN': 'mask“{value}”是点分十进制子网掩码：新条目应填写 CIDR 前缀长度，请改为 {prefix}。',
  },
  'pool.gatewayRequired': {
    en: 'gateway is required on entry {ip}: enter the IPv4 address of the subnet’s router.',
    'zh-CN': '条目 {ip} 必须填写 gateway：请填写该子网路由器（网关）的 IPv4 地址。',
  },
  'pool.gatewayInvalid': {
    en: 'gateway "{value}" is not an IPv4 address: write four numbers from 0 to 255 separated by dots.',
    'zh-CN': 'gateway“{value}”不是有效的 IPv4 地址：请填写以点分隔的四个 0–255 的数字。',
  },
  'pool.gatewayIsOwnIp': {
    en: 'gateway is the entry’s own address {ip}: the machine would route through itself. Enter the subnet’s router.',
    'zh-CN':
      'gateway 与条目自身的地址 {ip} 相同：machine 将把流量路由给自己。请填写该子网的路由器地址。',
  },
  'pool.gatewayOutsideSubnet': {
    en: 'gateway {gateway} is outside the subnet {ip}/{prefix}: the machine may not reach it. Check the gateway and the mask.',
    'zh-CN':
      'gateway {gateway} 不在子网 {ip}/{prefix} 内：machine 可能无法访问该网关。请检查 gateway 和 mask。',
  },
  'pool.dnsInvalid': {
    en: 'dns "{value}" must be one or more IPv4 addresses separated by commas; not valid: {invalid}.',
    'zh-CN': 'dns“{value}”必须是一个或多个以逗号分隔的 IPv4 地址；无效的部分：{invalid}。',
  },
  'pool.machineNameInvalid': {
    en: 'machineName "{value}" cannot be a VM name: use lowercase letters, digits, "-" and ".", starting and ending with a letter or digit (a DNS-1123 subdomain, at most 253 characters).',
    'zh-CN':
      'machineName“{value}”不能用作虚拟机名称：只能包含小写字母、数字、“-”和“.”，且以字母或数字开头和结尾（DNS-1123 子域名，最多 253 个字符）。',
  },
  'dcs.nameInvalid': {
    en: '{field} "{value}" is not a name DCS can resolve: it must not be empty, "." or "..", nor contain "/", "\\", spaces around it, control or text-direction characters (at most 255 characters).',
    'zh-CN':
      '{field}“{value}”不是 DCS 可解析的名称：不能为空、“.”或“..”，不能包含“/”“\\”、首尾空格、控制字符或文字方向字符（最多 255 个字符）。',
  },
  'boot.secretNameInvalid': {
    en: 'File {path} takes its content from Secret "{name}", which is not a Secret name: use a DNS-1123 subdomain (lowercase letters, digits, "-" and "."), such as the catalog\'s files Secret.',
    'zh-CN':
      '文件 {path} 的内容来自 Secret“{name}”，但这不是有效的 Secret 名称：请使用 DNS-1123 子域名（小写字母、数字、“-”和“.”），例如版本目录中的文件 Secret。',
  },
  'boot.secretKeyInvalid': {
    en: 'File {path} takes its content from key "{key}" of Secret {name}, which is not a Secret key: use letters, digits, "-", "_" and ".", not "." or "..".',
    'zh-CN':
      '文件 {path} 的内容来自 Secret {name} 的键“{key}”，但这不是有效的 Secret 键：只能包含字母、数字、“-”“_”和“.”，且不能为“.”或“..”。',
  },
  'pool.hostnameInvalid': {
    en: 'hostname "{value}" is not a valid host name: use at most 63 lowercase letters, digits and "-", starting and ending with a letter or digit.',
    'zh-CN':
      'hostname“{value}”不是有效的主机名：最多 63 个字符，只能包含小写字母、数字和“-”，且必须以字母或数字开头和结尾。',
  },
  'disk.quantityInvalid': {
    en: 'quantityGB {value} of persistent disk slot {slot} on entry {ip} must be at least 1.',
    'zh-CN': '条目 {ip} 上槽位 {slot} 的持久磁盘 quantityGB 为 {value}，必须至少为 1。',
  },
  'disk.pathInvalid': {
    en: 'path "{value}" of a persistent disk on entry {ip} must be an absolute path, such as /var/cpaas.',
    'zh-CN': '条目 {ip} 上持久磁盘的 path“{value}”必须是绝对路径，例如 /var/cpaas。',
  },

  /* R-POOL-4: edits never lose an entry */
  'pool.notFound': {
    en: 'IP pool {pool} was not found in namespace {namespace}: it may have been deleted. Reload the page.',
    'zh-CN': '在命名空间 {namespace} 中未找到 IP 池 {pool}：它可能已被删除。请重新加载页面。',
  },
  'pool.entryNotFound': {
    en: 'IP pool {pool} has no entry {ip} (it may have been removed meanwhile): reload the pool and try again.',
    'zh-CN': 'IP 池 {pool} 中没有条目 {ip}（可能已被他人移除）：请重新加载该池后重试。',
  },
  'pool.claimedEntryReadOnly': {
    en: 'Entry {ip} is held by machine {machine}: its ip, mask, gateway, dns, hostname and machineName stay as they are while it is claimed (R-POOL-5). Edit it once the machine is gone, or edit its NICs and disks.',
    'zh-CN':
      '条目 {ip} 已被 machine {machine} 占用：占用期间其 ip、mask、gateway、dns、hostname 和 machineName 保持不变（R-POOL-5）。请在该 machine 删除后再编辑，或只编辑其 NIC 和磁盘。',
  },
  'pool.ipChangeWithDisks': {
    en: 'Entry {ip} declares persistent disks, whose identity is the entry’s ip and slot (R-DISK-1): volumes already created on DCS for {ip} are not carried over to {to}.',
    'zh-CN':
      '条目 {ip} 声明了持久磁盘，其标识为条目的 ip 与 slot（R-DISK-1）：DCS 上已为 {ip} 创建的卷不会转移到 {to}。',
  },
  'pool.updateOfRemovedEntry': {
    en: 'Entry {ip} is both removed and updated: either remove it or update it.',
    'zh-CN': '条目 {ip} 同时被移除和修改：请只移除或只修改它。',
  },
  'pool.updatedTwice': {
    en: 'Entry {ip} is updated twice in one edit: merge the changes into one update.',
    'zh-CN': '条目 {ip} 在一次编辑中被修改了两次：请将修改合并为一次。',
  },
  'pool.removedTwice': {
    en: 'Entry {ip} is listed twice among the removals: list each address once.',
    'zh-CN': '条目 {ip} 在移除列表中出现了两次：每个地址只需列出一次。',
  },
  'pool.entryLost': {
    en: 'Entry {ip} would be lost by this write: every existing entry must be carried over. Re-read the pool and apply the change again.',
    'zh-CN': '此次写入将丢失条目 {ip}：所有已有条目都必须原样保留。请重新读取该池后再次应用修改。',
  },
  'pool.entryAltered': {
    en: '{field} of entry {ip} would change although nobody asked for it: existing entries are carried over exactly. Re-read the pool and apply the change again.',
    'zh-CN':
      '条目 {ip} 的 {field} 将被意外修改：已有条目必须原样保留。请重新读取该池后再次应用修改。',
  },
  'pool.entryUnexpected': {
    en: 'Entry {ip} would be written although it was not asked for (or appears twice): write only the entries the user added.',
    'zh-CN': '条目 {ip} 并非用户新增（或出现了两次），却将被写入：只应写入用户新增的条目。',
  },
  'pool.diskLost': {
    en: 'Persistent disk slot {slot} of entry {ip} would be lost by this write: copy every persistentDisk block exactly, including isThin.',
    'zh-CN':
      '此次写入将丢失条目 {ip} 上槽位 {slot} 的持久磁盘：请逐个原样复制所有 persistentDisk 块，包括其中的 isThin。',
  },
  'pool.diskAltered': {
    en: '{field} of persistent disk slot {slot} on entry {ip} would change although nobody asked for it: copy every persistentDisk block exactly, including isThin.',
    'zh-CN':
      '条目 {ip} 上槽位 {slot} 的持久磁盘的 {field} 将被意外修改：请逐个原样复制所有 persistentDisk 块，包括其中的 isThin。',
  },
  'pool.diskUnexpected': {
    en: 'Persistent disk slot {slot} of entry {ip} would be added although the user did not add it.',
    'zh-CN': '用户并未添加条目 {ip} 上槽位 {slot} 的持久磁盘，但它将被写入。',
  },

  /* R-POOL-5, R-POOL-6 */
  'pool.claimedEntryRemoved': {
    en: 'Entry {ip} is in use by machine {machine}: it cannot be removed or have its ip changed. Delete that machine first (targeted deletion), then remove the entry.',
    'zh-CN':
      '条目 {ip} 正被 machine {machine} 使用：不能移除该条目或修改其 ip。请先删除该 machine（定向删除），再移除该条目。',
  },
  'pool.removedEntryVolumesStay': {
    en: 'Removing entry {ip}: the volumes already created for its persistent disks (slot {slots}) stay on DCS, and the console deletes no DCS volume. Remove them on DCS if they are no longer needed.',
    'zh-CN':
      '将移除条目 {ip}：已为其持久磁盘（槽位 {slots}）创建的卷会保留在 DCS 上，控制台不会删除任何 DCS 卷。如不再需要，请在 DCS 上手动删除。',
  },

  /* R-NIC-1, R-NIC-2 */
  'nic.dvSwitchRequired': {
    en: 'dvSwitchName is required on an extra NIC: the provider resolves the port group on this distributed switch before cloning the VM.',
    'zh-CN':
      '额外 NIC 必须填写 dvSwitchName：provider 会在克隆 VM 之前在该分布式交换机上解析端口组。',
  },
  'nic.portGroupRequired': {
    en: 'portGroupName is required on an extra NIC: the provider attaches the NIC to this port group before cloning the VM.',
    'zh-CN': '额外 NIC 必须填写 portGroupName：provider 会在克隆 VM 之前将 NIC 连接到该端口组。',
  },
  'nic.ipRecommended': {
    en: 'ip is recommended on an extra NIC: without it, the guest network of this NIC is not configured statically.',
    'zh-CN': '建议为额外 NIC 填写 ip：否则不会为该 NIC 生成静态来宾网络配置。',
  },
  'nic.maskRecommended': {
    en: 'mask is recommended on an extra NIC: without it, the guest network of this NIC is not configured statically.',
    'zh-CN': '建议为额外 NIC 填写 mask：否则不会为该 NIC 生成静态来宾网络配置。',
  },
  'nic.gatewaySet': {
    en: 'This extra NIC has gateway {gateway}: make sure the guest OS keeps its default route on the primary network.',
    'zh-CN': '该额外 NIC 配置了网关 {gateway}：请确认来宾 OS 的默认路由仍然走主网络。',
  },
  'nic.claimedEntryNotHotUpdated': {
    en: 'Entry {ip} is in use by machine {machine}: NIC changes are not applied to its running VM. They take effect only when a new VM is created for this entry, for example when the machine is replaced.',
    'zh-CN':
      '条目 {ip} 正被 machine {machine} 使用：NIC 修改不会热更新到正在运行的 VM，只有为该条目创建新 VM 时（例如替换该 machine 后）才会生效。',
  },
  'net.portGroupNotInSwitch': {
    en: 'Port group {portGroup} does not belong to distributed switch {dvSwitch} (its port groups: {portGroups}): choose a port group of that switch.',
    'zh-CN':
      '端口组 {portGroup} 不属于分布式交换机 {dvSwitch}（其端口组：{portGroups}）：请选择该交换机下的端口组。',
  },
  'net.dvSwitchUnknown': {
    en: 'Distributed switch {dvSwitch} was not found on DCS: check its name.',
    'zh-CN': '在 DCS 上未找到分布式交换机 {dvSwitch}：请检查名称。',
  },

  /* R-DISK-1..6 */
  'disk.slotInvalid': {
    en: 'slot {slot} of a persistent disk on entry {ip} is negative: slots are numbers from 0.',
    'zh-CN': '条目 {ip} 上持久磁盘的 slot {slot} 为负数：槽位编号从 0 开始。',
  },
  'disk.slotDuplicate': {
    en: 'slot {slot} appears twice on entry {ip}: a persistent disk is identified by (ip, slot), so each disk of an entry needs its own slot.',
    'zh-CN':
      '条目 {ip} 上 slot {slot} 出现了两次：持久磁盘以 (ip, slot) 作为标识，因此同一条目的每个磁盘必须使用唯一的槽位。',
  },
  'disk.pathDuplicate': {
    en: 'path {path} is mounted by two persistent disks of entry {ip}: mount paths must be unique.',
    'zh-CN': '条目 {ip} 的两个持久磁盘都挂载到 {path}：挂载路径必须唯一。',
  },
  'disk.removed': {
    en: 'Persistent disk slot {slot} of entry {ip} was removed: persistent disks may be appended but never removed. Put it back.',
    'zh-CN':
      '条目 {ip} 上槽位 {slot} 的持久磁盘被删除了：持久磁盘只能追加，不支持删除。请将其恢复。',
  },
  'disk.immutableChanged': {
    en: '{field} of persistent disk slot {slot} on entry {ip} cannot change once the disk is created ("{old}" → "{new}"): keep "{old}".',
    'zh-CN':
      '条目 {ip} 上槽位 {slot} 的持久磁盘创建后，其 {field} 不可修改（“{old}” → “{new}”）：请保持为“{old}”。',
  },
  'disk.isThinChanged': {
    en: 'isThin of persistent disk slot {slot} on entry {ip} changed: isThin takes effect only when a volume is created, so existing volumes stay as they are; only volumes created later use it.',
    'zh-CN':
      '条目 {ip} 上槽位 {slot} 的持久磁盘的 isThin 已修改：isThin 仅在创建卷时生效，现有卷不会改变，只有之后新建的持久卷才会使用新值。',
  },
  'disk.rollingChange': {
    en: '{field} of persistent disk slot {slot} on entry {ip} changes from {old} to {new}: this change affects rolling updates. Review it before applying.',
    'zh-CN':
      '条目 {ip} 上槽位 {slot} 的持久磁盘的 {field} 将从 {old} 改为 {new}：此变更会影响滚动更新，请在应用前确认。',
  },
  'disk.appendedToRunningVm': {
    en: 'New persistent disk slot {slot} on entry {ip}: DCS attaches it to the running VM of machine {machine}, but it is not formatted or mounted inside the guest until that VM is replaced.',
    'zh-CN':
      '条目 {ip} 新增了槽位 {slot} 的持久磁盘：DCS 会将其连接到 machine {machine} 正在运行的 VM，但在该 VM 被替换之前，不会在来宾操作系统内格式化或挂载该磁盘。',
  },
  'disk.legacyLayout': {
    en: 'Legacy disk layout: this machine template mounts {path} itself. With DCS provider 1.0.16 or later, {path} belongs in the IP pool’s persistentDisk so that it survives VM replacement; migrate the cluster to pool-managed persistent disks.',
    'zh-CN':
      '旧的磁盘布局：该 Machine 模板自行挂载了 {path}。在 DCS provider v1.0.16 或更高版本中，{path} 应在 IP 池的 persistentDisk 中声明，以便在 VM 替换后保留；请将集群迁移到由池管理的持久磁盘。',
  },
  'disk.cpaasMissing': {
    en: '{path} is required by the platform, but neither the machine template nor entry {ip} provides it: add a persistent disk with path {path} to the entry.',
    'zh-CN':
      '平台要求 {path}，但 Machine 模板和条目 {ip} 都没有提供：请在该条目的 persistentDisk 中添加 path 为 {path} 的持久磁盘。',
  },
  'disk.mountedTwice': {
    en: '{path} is mounted both by the machine template and by a persistent disk of entry {ip}: mount paths must be unique. Keep only one of them.',
    'zh-CN':
      '{path} 同时由 Machine 模板和条目 {ip} 的持久磁盘挂载：挂载路径必须唯一，请只保留其中一个。',
  },

  /* R-TPL-1..4 */
  'tpl.systemDiskMissing': {
    en: 'No disk has systemVolume: true: exactly one disk must be the system disk (its quantity 0 means the VM template’s size).',
    'zh-CN':
      '没有任何磁盘设置 systemVolume: true：必须且只能有一个系统盘（其 quantity 为 0 表示使用 VM 模板的大小）。',
  },
  'tpl.systemDiskMultiple': {
    en: '{count, plural, one {# disk} other {# disks}} have systemVolume: true: exactly one disk is the system disk. Clear systemVolume on the others.',
    'zh-CN':
      '有 {count} 个磁盘设置了 systemVolume: true：只能有一个系统盘，请取消其他磁盘的 systemVolume。',
  },
  'tpl.diskQuantityInvalid': {
    en: 'Disk quantity {value} must not be negative: enter a size in GB.',
    'zh-CN': '磁盘 quantity {value} 不能为负数：请填写以 GB 为单位的大小。',
  },
  'tpl.dataDiskQuantityZero': {
    en: 'This data disk has quantity 0: 0 means the VM template’s size and applies only to the system disk. Enter a size in GB.',
    'zh-CN':
      '该数据盘的 quantity 为 0：0 表示使用 VM 模板的大小，仅适用于系统盘。请填写以 GB 为单位的大小。',
  },
  'tpl.mountRequired': {
    en: 'No disk is mounted at {path}: the machine template needs a data disk with path {path}.',
    'zh-CN': '没有磁盘挂载到 {path}：Machine 模板需要一个 path 为 {path} 的数据盘。',
  },
  'tpl.mountPathInvalid': {
    en: 'Mount path "{value}" must be an absolute path, such as /var/lib/kubelet.',
    'zh-CN': '挂载路径“{value}”必须是绝对路径，例如 /var/lib/kubelet。',
  },
  'tpl.mountDuplicate': {
    en: '{path} is mounted by more than one disk: mount paths must be unique.',
    'zh-CN': '{path} 被多个磁盘挂载：挂载路径必须唯一。',
  },
  'tpl.cpaasRequiredInTemplate': {
    en: '{path} is required by the platform, and DCS provider {version} has no pool-managed persistent disks (they need 1.0.16): add a data disk with path {path} to the machine template.',
    'zh-CN':
      '平台要求 {path}，而 DCS provider {version} 不支持由池管理的持久磁盘（需要 v1.0.16）：请在 Machine 模板中添加 path 为 {path} 的数据盘。',
  },
  'tpl.vmTemplateRequired': {
    en: 'vmTemplateName is required: choose the DCS VM template that carries the Kubernetes version.',
    'zh-CN': 'vmTemplateName 为必填项：请选择包含对应 Kubernetes 版本的 DCS VM 模板。',
  },
  'tpl.placementTypeRequired': {
    en: '{field}.type is required when {field} is set: use {allowed}.',
    'zh-CN': '设置了 {field} 时，{field}.type 为必填项：可选值为 {allowed}。',
  },
  'tpl.placementTypeInvalid': {
    en: '{field}.type "{value}" is not supported: use {allowed}.',
    'zh-CN': '{field}.type“{value}”不受支持：可选值为 {allowed}。',
  },
  'tpl.placementNameRequired': {
    en: '{field}.name is required when {field} is set.',
    'zh-CN': '设置了 {field} 时，{field}.name 为必填项。',
  },
  'tpl.portGroupWithoutSwitch': {
    en: 'portGroupName {portGroup} is set without dvSwitchName: name the distributed switch the port group belongs to.',
    'zh-CN':
      '设置了 portGroupName {portGroup}，但未设置 dvSwitchName：请填写该端口组所属的分布式交换机。',
  },
  'tpl.cpuInvalid': {
    en: 'CPU quantity {value} must be at least 1 core.',
    'zh-CN': 'CPU quantity {value} 至少应为 1 核。',
  },
  'tpl.memoryInvalid': {
    en: 'Memory quantity {value} must be at least 1 MB.',
    'zh-CN': '内存 quantity {value} 至少应为 1 MB。',
  },
  'tpl.unchanged': {
    en: 'This new machine template is identical to the current one: switching to it would replace every machine without changing anything. Change CPU, memory, disks or the VM template, or cancel.',
    'zh-CN':
      '新的 Machine 模板与当前模板完全相同：切换到它会替换所有 machine，却不会带来任何变化。请修改 CPU、内存、磁盘或 VM 模板，或取消操作。',
  },
  'tpl.nameInUse': {
    en: 'A machine template named {name} already exists in namespace {namespace}: templates are immutable, so a change is a new template under a new, unique name.',
    'zh-CN':
      '命名空间 {namespace} 中已存在名为 {name} 的 Machine 模板：模板不可修改，变更需要以新的唯一名称创建新模板。',
  },
  'tpl.specImmutable': {
    en: '{field} cannot change: a DCSMachineTemplate is immutable. Create a new template with a unique name and point the MachineDeployment’s infrastructureRef at it.',
    'zh-CN':
      '{field} 不可修改：DCSMachineTemplate 是不可变的。请以唯一名称创建新模板，并将 MachineDeployment 的 infrastructureRef 指向它。',
  },

  /* R-BOOT-1..3 */
  'boot.patchMissing': {
    en: 'Kubernetes {version} needs the kubelet patch file {path} with "imagePullCredentialsVerificationPolicy": "NeverVerify": add that file.',
    'zh-CN':
      'Kubernetes {version} 需要 kubelet 补丁文件 {path}，且其中包含 "imagePullCredentialsVerificationPolicy": "NeverVerify"：请添加该文件。',
  },
  'boot.patchEmpty': {
    en: 'The kubelet patch file {path} has neither content nor contentFrom: for Kubernetes {version} it must set "imagePullCredentialsVerificationPolicy": "NeverVerify".',
    'zh-CN':
      'kubelet 补丁文件 {path} 既没有 content 也没有 contentFrom：对于 Kubernetes {version}，它必须设置 "imagePullCredentialsVerificationPolicy": "NeverVerify"。',
  },
  'boot.neverVerifyMissing': {
    en: 'The kubelet patch lacks "imagePullCredentialsVerificationPolicy": "NeverVerify", which Kubernetes {version} (1.35 or later) requires: add it.',
    'zh-CN':
      'kubelet 补丁缺少 "imagePullCredentialsVerificationPolicy": "NeverVerify"，而 Kubernetes {version}（1.35 及之后版本）必须设置此参数：请添加。',
  },
  'boot.neverVerifyWrongValue': {
    en: 'The kubelet patch sets imagePullCredentialsVerificationPolicy to "{value}": Kubernetes {version} requires "NeverVerify".',
    'zh-CN':
      'kubelet 补丁将 imagePullCredentialsVerificationPolicy 设置为“{value}”：Kubernetes {version} 要求设置为 "NeverVerify"。',
  },
  'boot.neverVerifyForbidden': {
    en: 'The kubelet patch sets imagePullCredentialsVerificationPolicy, which Kubernetes {version} (1.34 or earlier) does not support: remove it.',
    'zh-CN':
      'kubelet 补丁设置了 imagePullCredentialsVerificationPolicy，而 Kubernetes {version}（1.34 或更早版本）不支持此参数：请将其删除。',
  },
  'boot.patchSecretUnknownNeeds': {
    en: 'The kubelet patch comes from key {key} of Secret {secret}, which could not be read: make sure it contains "imagePullCredentialsVerificationPolicy": "NeverVerify", which Kubernetes {version} requires.',
    'zh-CN':
      'kubelet 补丁来自 Secret {secret} 的键 {key}，但无法读取该内容：请确认其中包含 Kubernetes {version} 所必需的 "imagePullCredentialsVerificationPolicy": "NeverVerify"。',
  },
  'boot.patchSecretUnknownForbids': {
    en: 'The kubelet patch comes from key {key} of Secret {secret}, which could not be read: make sure it does not set imagePullCredentialsVerificationPolicy, which Kubernetes {version} does not support.',
    'zh-CN':
      'kubelet 补丁来自 Secret {secret} 的键 {key}，但无法读取该内容：请确认其中没有设置 Kubernetes {version} 不支持的 imagePullCredentialsVerificationPolicy。',
  },
  'boot.patchesDirectory': {
    en: 'joinConfiguration.patches.directory must be {directory}, or kubeadm does not apply the kubelet patch that sets imagePullCredentialsVerificationPolicy.',
    'zh-CN':
      'joinConfiguration.patches.directory 必须为 {directory}，否则 kubeadm 不会应用设置 imagePullCredentialsVerificationPolicy 的 kubelet 补丁。',
  },
  'boot.currentTemplateIncompatible': {
    en: 'The pool’s bootstrap template {name} does not fit Kubernetes {version} (its kubelet patch and imagePullCredentialsVerificationPolicy): add a new bootstrap template to this upgrade.',
    'zh-CN':
      '节点池当前的 Bootstrap 模板 {name} 不适用于 Kubernetes {version}（其 kubelet 补丁中的 imagePullCredentialsVerificationPolicy 不符合要求）：请在本次升级中提供新的 Bootstrap 模板。',
  },
  'boot.tokenArgMissing': {
    en: 'kubeletExtraArgs has no {arg}: set {arg} to {token}, the token the DCS provider replaces at join time, or the node cannot be matched to its machine.',
    'zh-CN':
      'kubeletExtraArgs 中没有 {arg}：请将 {arg} 设置为 {token}（DCS provider 在机器加入时替换的令牌），否则节点无法与其 machine 对应。',
  },
  'boot.tokenArgRemoved': {
    en: 'kubeletExtraArgs {arg} was removed: keep {arg}: {token} verbatim; the DCS provider replaces the token at join time.',
    'zh-CN':
      'kubeletExtraArgs 中的 {arg} 被删除了：请原样保留 {arg}: {token}，DCS provider 会在机器加入时替换该令牌。',
  },
  'boot.tokenAltered': {
    en: 'kubeletExtraArgs {arg} is "{value}": it must be the literal token {token}, which the DCS provider replaces at join time. Put {token} back.',
    'zh-CN':
      'kubeletExtraArgs 中 {arg} 的值为“{value}”：它必须是字面魔法令牌 {token}，由 DCS provider 在机器加入时替换。请改回 {token}。',
  },
  'boot.tokenEdited': {
    en: 'The magic token {token} was edited or removed here: the DCS provider replaces it at join time, so keep it verbatim.',
    'zh-CN':
      '此处的魔法令牌 {token} 被修改或删除了：DCS provider 会在机器加入时替换它，请保持原样。',
  },
  'boot.inPlaceEdit': {
    en: 'Bootstrap template {name} is used by {pools}: editing it in place does not roll existing machines, only new machines use it. To roll, clone it under a new name and switch bootstrap.configRef.name.',
    'zh-CN':
      'Bootstrap 模板 {name} 正被 {pools} 使用：直接修改不会触发现有 machine 的滚动更新，只有新 machine 会使用它。如需滚动更新，请以新名称复制该模板并修改 bootstrap.configRef.name。',
  },
  'boot.nameInUse': {
    en: 'A bootstrap template named {name} already exists in namespace {namespace}: editing in place does not roll machines, so clone it under a new, unique name.',
    'zh-CN':
      '命名空间 {namespace} 中已存在名为 {name} 的 Bootstrap 模板：直接修改不会触发滚动更新，请以新的唯一名称复制该模板。',
  },
  'boot.unchanged': {
    en: 'This bootstrap template is identical to {name}, the current one: switching to it would replace every machine without changing anything.',
    'zh-CN':
      '该 Bootstrap 模板与当前模板 {name} 完全相同：切换到它会替换所有 machine，却不会带来任何变化。',
  },

  /* R-CP-CONFIG: O-EDIT-CP-CONFIG, what KubeadmControlPlane lets change in place */
  'cp.configFieldLocked': {
    en: 'kubeadmConfigSpec.{field} cannot be changed on an existing control plane: KubeadmControlPlane accepts changes to files, users, commands, ntp, mounts, disk setup and the nodeRegistration and patches of initConfiguration and joinConfiguration only. Put it back as it was.',
    'zh-CN':
      '现有控制平面的 kubeadmConfigSpec.{field} 不能修改：KubeadmControlPlane 只接受对 files、users、命令、时间同步、挂载、磁盘设置以及 initConfiguration 和 joinConfiguration 中 nodeRegistration 与 patches 的修改。请将其恢复原样。',
  },

  /* R-MD-2, R-MD-3: strategy */
  'md.intOrPercent.notPercent': {
    en: '{field} "{value}" is a string but not a percentage: write an integer such as 1, or a percentage such as "25%".',
    'zh-CN': '{field}“{value}”是字符串但不是百分比：请填写整数（如 1）或百分比（如 "25%"）。',
  },
  'md.intOrPercent.badPercent': {
    en: '{field} "{value}" is not a valid percentage: write a whole number followed by %, such as "25%".',
    'zh-CN': '{field}“{value}”不是有效的百分比：请填写整数后跟 %，例如 "25%"。',
  },
  'md.intOrPercent.negative': {
    en: '{field} {value} is negative: use 0 or more.',
    'zh-CN': '{field} {value} 为负数：请填写 0 或更大的值。',
  },
  'md.intOrPercent.notInteger': {
    en: '{field} {value} is not a whole number: write an integer or a percentage such as "25%".',
    'zh-CN': '{field} {value} 不是整数：请填写整数或百分比（如 "25%"）。',
  },
  'md.bothZero': {
    en: 'maxSurge and maxUnavailable cannot both be 0: the rolling update could never replace a machine. Set maxUnavailable to 1.',
    'zh-CN':
      'maxSurge 和 maxUnavailable 不能同时为 0：滚动更新将无法替换任何 machine。请将 maxUnavailable 设为 1。',
  },
  'md.maxSurgeWithDisks': {
    en: 'maxSurge must be 0: this pool relies on persistent disks, which move node by node with their fixed IP slots, so machines are replaced one at a time. maxSurge {maxSurge} would add {resolved, plural, one {# extra machine} other {# extra machines}}.',
    'zh-CN':
      'maxSurge 必须为 0：该节点池依赖持久磁盘，固定 IP 槽位和保留磁盘需要逐个节点迁移，因此 machine 必须逐个替换。maxSurge {maxSurge} 会额外创建 {resolved} 台 machine。',
  },
  'md.rolloutSurgeWithDisks': {
    en: 'This pool relies on persistent disks, but its maxSurge is {maxSurge} ({resolved, plural, one {# extra machine} other {# extra machines}}): the rolling update would not replace machines one at a time. Set the MachineDeployment’s maxSurge to 0 first.',
    'zh-CN':
      '该节点池依赖持久磁盘，但其 maxSurge 为 {maxSurge}（额外 {resolved} 台 machine）：滚动更新将不会逐个替换 machine。请先将 MachineDeployment 的 maxSurge 设为 0。',
  },
  'md.consumerSurgeWithDisks': {
    en: 'MachineDeployment {deployment} uses this IP pool with maxSurge {maxSurge} ({resolved, plural, one {# extra machine} other {# extra machines}}): with persistent disks, set its maxSurge to 0 so that machines are replaced one at a time.',
    'zh-CN':
      'MachineDeployment {deployment} 使用该 IP 池，且 maxSurge 为 {maxSurge}（额外 {resolved} 台 machine）：使用持久磁盘时，请将其 maxSurge 设为 0，使 machine 逐个替换。',
  },
  'md.strategyOnDelete': {
    en: 'Pool {pool} uses the OnDelete strategy: machines are replaced only when someone deletes them, so maxSurge and maxUnavailable take effect only if the strategy becomes RollingUpdate.',
    'zh-CN':
      '节点池 {pool} 使用 OnDelete 策略：只有在 machine 被删除时才会替换，因此只有当策略改为 RollingUpdate 时 maxSurge 和 maxUnavailable 才会生效。',
  },

  /* R-MD-4: versions */
  'md.versionInvalid': {
    en: 'version "{value}" is not a Kubernetes version: write it like v1.33.4.',
    'zh-CN': 'version“{value}”不是有效的 Kubernetes 版本：请按 v1.33.4 的格式填写。',
  },
  'md.catalogEmpty': {
    en: 'The versions catalog (ConfigMap dcs-kubernetes-versions) is empty or missing, so the version cannot be checked against the VM templates. Ask the platform operator to fill it.',
    'zh-CN':
      '版本目录（ConfigMap dcs-kubernetes-versions）为空或不存在，因此无法根据 VM 模板校验版本。请联系平台管理员补充。',
  },
  'md.versionNotInCatalog': {
    en: 'Kubernetes {version} is not offered by the versions catalog: choose one of {offered}.',
    'zh-CN': '版本目录中没有提供 Kubernetes {version}：请从 {offered} 中选择。',
  },
  'md.vmTemplateMismatch': {
    en: 'VM template {vmTemplateName} does not carry Kubernetes {version}; the versions catalog names {expected} for it. A mismatch makes nodes fail to join: choose {expected}.',
    'zh-CN':
      'VM 模板 {vmTemplateName} 不包含 Kubernetes {version}；版本目录为该版本指定的是 {expected}。两者不一致会导致节点无法加入集群：请选择 {expected}。',
  },
  'md.vmTemplateCarriesOther': {
    en: 'VM template {vmTemplateName} carries Kubernetes {carried}, not {version}: nodes would fail to join. Choose VM template {expected}, or version {carried}.',
    'zh-CN':
      'VM 模板 {vmTemplateName} 包含的是 Kubernetes {carried}，而不是 {version}：节点将无法加入集群。请选择 VM 模板 {expected}，或选择版本 {carried}。',
  },
  'md.controlPlaneUnknown': {
    en: 'The control plane’s Kubernetes version is unknown, so the version skew (workers not newer than the control plane, at most three minor versions older) cannot be checked.',
    'zh-CN':
      '控制平面的 Kubernetes 版本未知，因此无法校验版本偏差（工作节点不得高于控制平面，且最多落后三个次版本）。',
  },
  'md.newerThanControlPlane': {
    en: 'Workers at {version} would be newer than the control plane ({controlPlane}): upgrade the control plane first.',
    'zh-CN': '工作节点版本 {version} 将高于控制平面版本（{controlPlane}）：请先升级控制平面。',
  },
  'md.tooOldForControlPlane': {
    en: 'Workers at {version} would be {skew} minor versions older than the control plane ({controlPlane}); at most {max} are supported. Choose a newer version.',
    'zh-CN':
      '工作节点版本 {version} 将比控制平面（{controlPlane}）落后 {skew} 个次版本，最多只支持落后 {max} 个。请选择更新的版本。',
  },
  'md.versionUnchanged': {
    en: 'The pool already runs Kubernetes {version}: there is nothing to upgrade.',
    'zh-CN': '该节点池已经运行 Kubernetes {version}：无需升级。',
  },
  'md.workerDowngrade': {
    en: 'Kubernetes {target} is older than the pool’s {current}: Kubernetes does not support downgrading nodes. Make sure this is intended.',
    'zh-CN':
      'Kubernetes {target} 低于节点池当前的 {current}：Kubernetes 不支持降级节点。请确认这是预期操作。',
  },
  'md.controlPlaneDowngrade': {
    en: 'The control plane cannot be downgraded from {current} to {target}: choose a newer version.',
    'zh-CN': '控制平面不能从 {current} 降级到 {target}：请选择更新的版本。',
  },
  'md.controlPlaneSkipsMinor': {
    en: 'The control plane upgrades one minor version at a time, and {current} → {target} spans {skew}: upgrade to the next minor version first.',
    'zh-CN':
      '控制平面每次只能升级一个次版本，而 {current} → {target} 跨越了 {skew} 个次版本：请先升级到下一个次版本。',
  },
  'md.operationNotForPool': {
    en: 'Operation {operation} does not apply to pool {pool}: the control plane is upgraded with the control-plane operation, worker pools with the others.',
    'zh-CN':
      '操作 {operation} 不适用于节点池 {pool}：控制平面使用 control-plane 操作升级，工作节点池使用其他操作。',
  },

  /* R-MD-5: names */
  'name.reserved': {
    en: '"{name}" is reserved for the control-plane pool: choose another name.',
    'zh-CN': '“{name}”是控制平面节点池的保留名称：请换一个名称。',
  },
  'name.poolInvalid': {
    en: '"{name}" is not a valid pool name: use at most 63 lowercase letters, digits and "-", starting and ending with a letter or digit (the name is also a label value).',
    'zh-CN':
      '“{name}”不是有效的节点池名称：最多 63 个字符，只能包含小写字母、数字和“-”，且必须以字母或数字开头和结尾（该名称也用作标签值）。',
  },
  'name.invalid': {
    en: '"{name}" is not a valid {kind} name: use lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters.',
    'zh-CN':
      '“{name}”不是有效的 {kind} 名称：只能包含小写字母、数字、“-”和“.”，必须以字母或数字开头和结尾，最多 253 个字符。',
  },
  'name.inUse': {
    en: 'A {kind} named {name} already exists in namespace {namespace}, which all clusters share: choose another name.',
    'zh-CN': '命名空间 {namespace} 由所有集群共享，其中已存在名为 {name} 的 {kind}：请换一个名称。',
  },
  'name.notFound': {
    en: '{kind} {name} was not found in namespace {namespace}: choose an existing one, or create a new one.',
    'zh-CN': '在命名空间 {namespace} 中未找到 {kind} {name}：请选择已有的对象，或新建一个。',
  },
  'name.carriesOtherVersion': {
    en: '{name} carries version {carried} in its name but is made for {version}: name it after the version it runs, such as one with {expected}.',
    'zh-CN':
      '{name} 的名称中含有版本 {carried}，但它用于 {version}：请按其运行的版本命名，例如使用 {expected}。',
  },
  'name.prefixRecommended': {
    en: 'All clusters share the namespace: start the pool name with the cluster name and a hyphen, such as {example}, to avoid name collisions.',
    'zh-CN':
      '所有集群共享该命名空间：建议在池名称前加上集群名称并用连字符分隔（例如 {example}），以避免命名冲突。',
  },

  /* R-MD-6: targeted scale-down */
  'md.deleteDuplicate': {
    en: 'Machine {machine} is selected twice: select each machine once.',
    'zh-CN': 'machine {machine} 被选择了两次：每个 machine 只能选择一次。',
  },
  'md.deleteNotInPool': {
    en: 'Machine {machine} is not a machine of pool {pool}: select machines of this pool only.',
    'zh-CN': 'machine {machine} 不属于节点池 {pool}：只能选择该节点池中的 machine。',
  },
  'md.deleteAlreadyDeleting': {
    en: 'Machine {machine} is already being deleted: leave it out, or replicas would be lowered once more and another machine would be deleted at random.',
    'zh-CN':
      'machine {machine} 已在删除中：请不要选择它，否则副本数会被多减一次，并随机删除另一台 machine。',
  },
  'md.deleteMoreThanReplicas': {
    en: '{count, plural, one {# machine is} other {# machines are}} selected but the pool has only {replicas, plural, one {# replica} other {# replicas}}.',
    'zh-CN': '选择了 {count} 台 machine，但该节点池只有 {replicas} 个副本。',
  },
  'md.deleteDuringRollout': {
    en: 'Pool {pool} is in a rolling update: wait until it finishes. Lowering replicas by exactly the number of annotated machines deletes exactly those machines only on a steady pool.',
    'zh-CN':
      '节点池 {pool} 正在滚动更新：请等待其完成。只有在节点池稳定时，按已注解 machine 的数量减少副本数才会恰好删除这些 machine。',
  },
  'md.deleteWhileScaling': {
    en: 'Pool {pool} has {live, plural, one {# machine} other {# machines}} for {replicas, plural, one {# replica} other {# replicas}} (it is still scaling): wait until they match, or other machines than the selected ones would be deleted.',
    'zh-CN':
      '节点池 {pool} 当前有 {live} 台 machine，副本数为 {replicas}（仍在扩缩容中）：请等待两者一致，否则可能删除所选之外的 machine。',
  },
  'md.deleteResourceVersionMissing': {
    en: 'Machine {machine} has no entry in machineResourceVersions: send the resourceVersion of each selected machine as the user saw it.',
    'zh-CN':
      'machineResourceVersions 中缺少 machine {machine}：请为每个所选 machine 提供用户看到的 resourceVersion。',
  },

  /* R-VER-1, R-VER-2 */
  'version.providerUnknown': {
    en: 'The DCS provider’s version could not be found; the web workflow needs {required} or later. Check the app.kubernetes.io/version label of the provider’s Deployment, or set the console’s provider version flag.',
    'zh-CN':
      '无法获取 DCS provider 的版本；Web 工作流需要 {required} 或更高版本。请检查 provider Deployment 的 app.kubernetes.io/version 标签，或设置控制台的 provider 版本参数。',
  },
  'version.webWorkflowUnsupported': {
    en: 'DCS provider {version} is older than {required}, which the web node-pool workflow needs: use the YAML workflow, or upgrade the provider.',
    'zh-CN':
      'DCS provider {version} 早于 Web 节点池工作流所需的 {required}：请使用基于 YAML 的工作流，或升级 provider。',
  },
  'version.persistentDisksUnsupported': {
    en: 'Entry {ip} declares persistent disks, which need DCS provider {required} or later (installed: {version}): remove them and mount /var/cpaas in the machine template, or upgrade the provider.',
    'zh-CN':
      '条目 {ip} 声明了持久磁盘，这需要 DCS provider {required} 或更高版本（当前：{version}）：请删除这些持久磁盘并在 Machine 模板中挂载 /var/cpaas，或升级 provider。',
  },
  /* The request's shape and formats (R-REQUEST): what a field must hold before the rules judge it */
  'request.required': {
    en: '{field} is required.',
    'zh-CN': '{field} 为必填项。',
  },
  'request.tooSmall': {
    en: '{field} {value} is less than {minimum}: enter {minimum} or more.',
    'zh-CN': '{field} {value} 小于 {minimum}：请填写 {minimum} 或更大的值。',
  },
  'request.tooBigNumber': {
    en: '{field} {value} is more than {maximum}: enter {maximum} or less.',
    'zh-CN': '{field} {value} 大于 {maximum}：请填写 {maximum} 或更小的值。',
  },
  'request.tooShort': {
    en: '{field} needs at least {minimum, plural, one {# character} other {# characters}}.',
    'zh-CN': '{field} 至少需要 {minimum} 个字符。',
  },
  'request.tooLong': {
    en: '{field} is too long: at most {maximum, plural, one {# character} other {# characters}}.',
    'zh-CN': '{field} 过长：最多 {maximum} 个字符。',
  },
  'request.tooFewItems': {
    en: '{field} needs at least {minimum, plural, one {# item} other {# items}}: add one.',
    'zh-CN': '{field} 至少需要 {minimum} 项：请添加。',
  },
  'request.tooManyItems': {
    en: '{field} has too many items: at most {maximum}.',
    'zh-CN': '{field} 的项数过多：最多 {maximum} 项。',
  },
  'request.notInteger': {
    en: '{field} {value} is not a whole number: enter an integer.',
    'zh-CN': '{field} {value} 不是整数：请填写整数。',
  },
  'request.wrongType': {
    en: '{field} has the wrong type: expected {expected}.',
    'zh-CN': '{field} 的类型不正确：应为 {expected}。',
  },
  'request.notAllowed': {
    en: '{field} "{value}" is not allowed: choose one of {allowed}.',
    'zh-CN': '{field}“{value}”不是允许的值：请从 {allowed} 中选择。',
  },
  'request.invalid': {
    en: '{field} is invalid: {detail}',
    'zh-CN': '{field} 无效：{detail}',
  },
  'request.durationInvalid': {
    en: '{field} "{value}" is not a duration Cluster API can read: write a number with a unit, such as "30s", "5m" or "1h30m" (units ns, us, ms, s, m, h), or 0.',
    'zh-CN':
      '{field}“{value}”不是 Cluster API 可识别的时长：请填写带单位的数字，例如 "30s"、"5m" 或 "1h30m"（单位 ns、us、ms、s、m、h），或 0。',
  },
  /* R-RESTART-3: O-RESTART's "at a time" */
  'request.restartTimeInvalid': {
    en: 'at "{value}" is not a time Cluster API can read: write an RFC 3339 timestamp with its zone, such as "2026-05-01T22:00:00Z" or "2026-05-02T06:00:00+08:00" (R-RESTART-3).',
    'zh-CN':
      'at“{value}”不是 Cluster API 可识别的时间：请填写带时区的 RFC 3339 时间戳，例如 "2026-05-01T22:00:00Z" 或 "2026-05-02T06:00:00+08:00"（R-RESTART-3）。',
  },
  'request.unknownField': {
    en: '{field} is not a field of {kind}: the API server would drop it without a word. Check its spelling.',
    'zh-CN': '{field} 不是 {kind} 的字段：API 服务器会直接丢弃它。请检查拼写。',
  },
  'request.planOwned.ipHostPoolRef': {
    en: "{field} is set by the plan, not by the request (R-POOL-1): a new pool's {kind} names the request's IP pool, an upgrade's clone keeps the current template's, so that the pool's machines take their addresses where R-POOL-1 counts them. Remove it; choose the IP pool in the form.",
    'zh-CN':
      '{field} 由计划设置，而不是由请求设置（R-POOL-1）：新节点池的 {kind} 指向请求中的 IP 池，升级时克隆的模板沿用当前模板的 IP 池，以便节点池的机器从 R-POOL-1 计数的 IP 池取得地址。请删除该字段；在表单中选择 IP 池。',
  },
  'request.planOwned.providerID': {
    en: '{field} is set by the DCS provider on each machine it creates, never in a {kind}: every machine made from the template would claim the same VM. Remove it.',
    'zh-CN':
      '{field} 由 DCS provider 在创建每台机器时设置，不能写在 {kind} 中：由该模板创建的每台机器都会声称是同一台虚拟机。请删除该字段。',
  },
  'request.unknownRequestField': {
    en: '{field} is not a field of this request: the console would ignore it. Remove it or check its spelling.',
    'zh-CN': '{field} 不是此请求的字段：控制台会忽略它。请删除或检查拼写。',
  },
  'request.versionWithoutMachine': {
    en: 'machineResourceVersions names {machine}, which deleteMachines does not: give the resourceVersion of each machine to delete, and of no other.',
    'zh-CN':
      'machineResourceVersions 包含 {machine}，但它不是要删除的机器：只需给出每台要删除的机器的 resourceVersion。',
  },
  'request.durationNegative': {
    en: '{field} "{value}" is negative: a timeout is 0 (no limit) or more.',
    'zh-CN': '{field}“{value}”为负数：超时时间应为 0（不限制）或更大。',
  },
  'request.tooDeep': {
    en: '{field} nests deeper than {limit, plural, one {# level} other {# levels}}: content this deep is not stored. Remove it.',
    'zh-CN': '{field} 的嵌套层级超过 {limit} 层：不会保存如此深的内容，请删除。',
  },
  'request.stringTooLong': {
    en: '{field} is longer than {limit, plural, one {# character} other {# characters}}: content this large is not stored. Shorten it, or keep it in a Secret.',
    'zh-CN': '{field} 超过 {limit} 个字符：不会保存如此大的内容，请缩短，或将其放入 Secret。',
  },
  'request.tooLarge': {
    en: 'The request is larger than {limit, plural, one {# byte} other {# bytes}}: it would make objects too large for the cluster to store. Send less at once.',
    'zh-CN': '请求超过 {limit} 字节：生成的对象将过大，集群无法保存。请分多次提交。',
  },

  /* O-MHC-CREATE / O-MHC-EDIT: a pool's MachineHealthCheck, R-MHC-1..7 */
  'healthCheck.alreadyChecked': {
    en: 'Pool {pool} already has a health check ({names}) whose selector matches its machines: two health checks over the same machines would remediate them twice over. Edit that health check, or remove it first.',
    'zh-CN':
      '节点池 {pool} 已有选择器匹配其 machine 的健康检查（{names}）：同一批 machine 上的两个健康检查会重复修复它们。请编辑该健康检查，或先将其删除。',
  },
  'healthCheck.nothingToCheck': {
    en: 'Give at least one unhealthy node condition, or a node start-up timeout that is not 0: without either the health check finds nothing to remediate (v1beta2 requires one of them).',
    'zh-CN':
      '请至少给出一个不健康节点条件，或一个不为 0 的节点启动超时：两者都没有时健康检查什么也发现不了（v1beta2 要求至少有其一）。',
  },
  'healthCheck.tooManyConditions': {
    en: '{count} unhealthy node conditions are more than the {max} Cluster API allows: remove some.',
    'zh-CN': '{count} 个不健康节点条件超过了 Cluster API 允许的 {max} 个：请删除一些。',
  },
  'healthCheck.conditionTwice': {
    en: 'Condition {index} repeats {type}={status} of condition {first}: the first one always decides. Remove one of them.',
    'zh-CN':
      '第 {index} 个条件重复了第 {first} 个条件的 {type}={status}：总是由第一个决定。请删除其中一个。',
  },
  'healthCheck.shortTimeout': {
    en: 'A timeout of {seconds} s for {type}={status} is short: a kubelet that misses a few heartbeats would have its machine replaced. {min} s or more is safer.',
    'zh-CN':
      '{type}={status} 的超时 {seconds} 秒偏短：kubelet 偶尔错过几次心跳，其 machine 就会被替换。{min} 秒或更长更稳妥。',
  },
  'healthCheck.startupTooShort': {
    en: 'nodeStartupTimeoutSeconds {seconds} is too short: Cluster API requires at least {min} seconds, or 0 to disable the start-up check.',
    'zh-CN':
      'nodeStartupTimeoutSeconds 为 {seconds}，太短：Cluster API 要求至少 {min} 秒，或设为 0 以关闭启动检查。',
  },
  'healthCheck.rangeReversed': {
    en: 'unhealthyRange [{min}-{max}] starts above its end: Cluster API refuses such a range. Give the smaller number first.',
    'zh-CN':
      'unhealthyRange [{min}-{max}] 的起点大于终点：Cluster API 会拒绝这样的范围。请把较小的数放在前面。',
  },
  'healthCheck.rangeInvalid': {
    en: 'unhealthyRange "{value}" is not a range: write it as [a-b], such as [1-3], with a at most b.',
    'zh-CN':
      'unhealthyRange "{value}" 不是有效范围：请写成 "[最小值-最大值]"，例如 [1-3]，且最小值不大于最大值。',
  },
  'healthCheck.maxUnhealthyInvalid': {
    en: 'maxUnhealthy "{value}" is neither a whole number (0 or more) nor a percentage such as 40%.',
    'zh-CN': 'maxUnhealthy "{value}" 既不是整数（0 或更大），也不是百分比（例如 40%）。',
  },
  'healthCheck.limitBoth': {
    en: 'Give maxUnhealthy or unhealthyRange, not both: Cluster API would use unhealthyRange and ignore maxUnhealthy.',
    'zh-CN':
      '请只给出 maxUnhealthy 或 unhealthyRange 之一：两者都给时 Cluster API 会使用 unhealthyRange 并忽略 maxUnhealthy。',
  },
  'healthCheck.neverRemediates': {
    en: 'With {limit}, no machine of {pool} (at {replicas, plural, one {# replica} other {# replicas}}) can ever be remediated: the health check would only report. Raise the limit, or remove it.',
    'zh-CN':
      '在 {limit} 下，{pool}（{replicas} 个副本）的 machine 永远不会被修复：健康检查只会报告。请提高限制，或将其移除。',
  },
  /* O-AUTOSCALE, O-AUTOSCALE-REMOVE and a manual scale of an autoscaled pool: R-AS-1..7 */
  'autoscale.bothOrNeither': {
    en: 'Give both minSize and maxSize to set the autoscaler’s bounds, or neither (both null) to remove them: the cluster autoscaler manages a MachineDeployment only when it carries both annotations. {field} is missing.',
    'zh-CN':
      '设置自动伸缩边界时须同时给出 minSize 和 maxSize，移除时两者都不给（均为 null）：cluster-autoscaler 只管理同时带有这两个注解的 MachineDeployment。缺少 {field}。',
  },
  'autoscale.replicasWithoutBounds': {
    en: 'replicas is set only with bounds: removing the autoscaler’s bounds leaves replicas as they are. Leave replicas out, and scale the pool afterwards if needed.',
    'zh-CN':
      '只有设置边界时才能同时设置 replicas：移除自动伸缩边界不会改变副本数。请去掉 replicas，之后如有需要再伸缩节点池。',
  },
  'autoscale.minAboveMax': {
    en: 'minSize {min} is more than maxSize {max}: the cluster autoscaler refuses such bounds and ignores the pool. Make minSize at most maxSize.',
    'zh-CN':
      'minSize {min} 大于 maxSize {max}：cluster-autoscaler 会拒绝这样的边界并忽略该节点池。请使 minSize 不大于 maxSize。',
  },
  'autoscale.maxZero': {
    en: 'maxSize 0 leaves {pool} no room to scale: the cluster autoscaler skips a node group whose maxSize is 0. Give maxSize 1 or more, or remove the bounds.',
    'zh-CN':
      'maxSize 为 0 时 {pool} 没有伸缩空间：cluster-autoscaler 会跳过 maxSize 为 0 的节点组。请将 maxSize 设为 1 或更大，或移除边界。',
  },
  'autoscale.replicasBelowMin': {
    en: 'replicas {replicas} of {pool} is below minSize {min}: the cluster autoscaler does not scale a pool that is outside its bounds, so it would leave this pool alone. Raise replicas to {to} in the same change, or lower minSize.',
    'zh-CN':
      '{pool} 的副本数 {replicas} 低于 minSize {min}：cluster-autoscaler 不会伸缩超出其边界的节点池，因此会不管这个节点池。请在同一变更中将副本数提高到 {to}，或降低 minSize。',
  },
  'autoscale.replicasAboveMax': {
    en: 'replicas {replicas} of {pool} is above maxSize {max}: the cluster autoscaler does not scale a pool that is outside its bounds, so it would leave this pool alone. Lower replicas to {to} in the same change, or raise maxSize.',
    'zh-CN':
      '{pool} 的副本数 {replicas} 高于 maxSize {max}：cluster-autoscaler 不会伸缩超出其边界的节点池，因此会不管这个节点池。请在同一变更中将副本数降低到 {to}，或提高 maxSize。',
  },
  'autoscale.maxBeyondIpPool': {
    en: 'maxSize {max} is more than IP pool {ipPool} can serve {pool} ({room, plural, one {# replica} other {# replicas}}): machines the autoscaler adds past that would wait without an address. Add entries to the pool, or lower maxSize to {room}.',
    'zh-CN':
      'maxSize {max} 超出了 IP 池 {ipPool} 能为 {pool} 提供的数量（{room} 个副本）：cluster-autoscaler 超出该数量后新增的 machine 将因没有 IP 地址而一直等待。请向该池添加条目，或将 maxSize 降至 {room}。',
  },
  'autoscale.fromZero': {
    en: 'At 0 replicas the cluster autoscaler can scale {pool} up again only if it knows a new machine’s size: add the capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory annotations to the MachineDeployment (the DCS provider does not report it). Without them the pool stays at 0.',
    'zh-CN':
      '副本数为 0 时，只有知道新 machine 的规格，cluster-autoscaler 才能再次扩容 {pool}：请为该 MachineDeployment 添加 capacity.cluster-autoscaler.kubernetes.io/cpu 和 capacity.cluster-autoscaler.kubernetes.io/memory 注解（DCS provider 不上报规格）。否则该节点池会一直保持 0 个副本。',
  },
  'autoscale.scaleBelowMin': {
    en: 'replicas {replicas} is below the autoscaler’s minSize {min} for {pool}: the cluster autoscaler would stop managing the pool until it is within [{min}, {max}] again. Lower minSize first (Autoscaling), or scale to {min} or more.',
    'zh-CN':
      '副本数 {replicas} 低于 {pool} 的自动伸缩 minSize {min}：在副本数回到 [{min}, {max}] 之前，cluster-autoscaler 将不再管理该节点池。请先降低 minSize（自动伸缩），或伸缩到 {min} 或更多。',
  },
  'autoscale.scaleAboveMax': {
    en: 'replicas {replicas} is above the autoscaler’s maxSize {max} for {pool}: the cluster autoscaler would stop managing the pool until it is within [{min}, {max}] again. Raise maxSize first (Autoscaling), or scale to {max} or fewer.',
    'zh-CN':
      '副本数 {replicas} 高于 {pool} 的自动伸缩 maxSize {max}：在副本数回到 [{min}, {max}] 之前，cluster-autoscaler 将不再管理该节点池。请先提高 maxSize（自动伸缩），或伸缩到 {max} 或更少。',
  },
  'autoscale.scaleWithin': {
    en: '{pool} is managed by the cluster autoscaler between {min} and {max}: it may change replicas {replicas} again, as soon as pods cannot be scheduled or nodes are unneeded.',
    'zh-CN':
      '{pool} 由 cluster-autoscaler 在 {min} 到 {max} 之间管理：一旦有 Pod 无法调度或节点不再需要，它可能再次修改副本数 {replicas}。',
  },
  /* The cluster autoscaler's bounds of a pool as they stand, the card's problems (R-AS-1..6). */
  'autoscale.problem.incomplete': {
    en: 'The cluster autoscaler ignores this pool: it carries only one of its bounds (min-size {min}, max-size {max}); both are needed. Set both, or remove them (Autoscaling).',
    'zh-CN':
      'cluster-autoscaler 会忽略该节点池：它只带有一个边界（min-size {min}，max-size {max}），需要两者都有。请同时设置两者，或将其移除（自动伸缩）。',
  },
  'autoscale.problem.invalid': {
    en: 'The cluster autoscaler ignores this pool: its bounds (min-size "{min}", max-size "{max}") are not both whole numbers of 0 or more. Set them again (Autoscaling).',
    'zh-CN':
      'cluster-autoscaler 会忽略该节点池：其边界（min-size "{min}"，max-size "{max}"）并非都是不小于 0 的整数。请重新设置（自动伸缩）。',
  },
  'autoscale.problem.minAboveMax': {
    en: 'The cluster autoscaler ignores this pool: its min-size {min} is more than its max-size {max}. Set the bounds again (Autoscaling).',
    'zh-CN':
      'cluster-autoscaler 会忽略该节点池：其 min-size {min} 大于 max-size {max}。请重新设置边界（自动伸缩）。',
  },
  'autoscale.problem.maxZero': {
    en: 'The cluster autoscaler ignores this pool: its max-size is 0, which leaves it no room to scale. Set the bounds again, or remove them (Autoscaling).',
    'zh-CN':
      'cluster-autoscaler 会忽略该节点池：其 max-size 为 0，没有伸缩空间。请重新设置边界，或将其移除（自动伸缩）。',
  },
  'autoscale.problem.replicasOutside': {
    en: 'replicas {replicas} is outside the cluster autoscaler’s bounds [{min}, {max}]: the autoscaler leaves the pool alone until it is within them again. Scale it into the bounds, or change them.',
    'zh-CN':
      '副本数 {replicas} 超出了 cluster-autoscaler 的边界 [{min}, {max}]：在回到边界内之前，cluster-autoscaler 不会管理该节点池。请将其伸缩到边界内，或修改边界。',
  },
  'autoscale.problem.atZero': {
    en: 'The pool is at 0 replicas and its MachineDeployment does not say a machine’s size (the capacity.cluster-autoscaler.kubernetes.io/cpu and memory annotations): the cluster autoscaler cannot scale it up from 0.',
    'zh-CN':
      '该节点池副本数为 0，且其 MachineDeployment 未注明 machine 规格（capacity.cluster-autoscaler.kubernetes.io/cpu 和 capacity.cluster-autoscaler.kubernetes.io/memory 注解）：cluster-autoscaler 无法将其从 0 扩容。',
  },
} as const satisfies Record<string, MessageText>;

export type MessageKey = keyof typeof catalog;

/** Every rule message, by key, in both languages. */
export const messages: Record<MessageKey, MessageText> = catalog;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(messages, key);
}

/** The `{param}` names of a text (plain and plural), in order of appearance, each once. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)(?:\}|,\s*plural,)/g)].map((m) => m[1] ?? ''))];
}

/** The text of `key` in `locale` with its placeholders filled; an unknown param stays as `{name}`. */
export function formatMessage(
  key: MessageKey,
  params: MessageParams = {},
  locale: Locale = 'en',
): string {
  return fillMessage(messages[key][locale], params, locale);
}

/**
 * The text of an issue from the wire (a RuleIssue, or any `{messageKey, params, message}`) in
 * `locale`; the issue's own English message when the key is not in this catalog.
 */
export function localizeMessage(
  issue: { messageKey: string; params: MessageParams; message: string },
  locale: Locale,
): string {
  return isMessageKey(issue.messageKey)
    ? formatMessage(issue.messageKey, issue.params, locale)
    : issue.message;
}
