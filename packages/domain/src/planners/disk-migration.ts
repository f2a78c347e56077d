import type { ValidationContext } from '../rules/context';
import { CPAAS_MOUNT, templateMountIndex } from '../rules/disk';
import type { RuleIssue } from '../rules/issue';
import type { MachineDeployment } from '../schemas/capi';
import type { MachineTemplateSpecInput } from '../requests';
import type {
  DCSIpHostnamePool,
  DCSMachineSpec,
  DCSMachineTemplate,
  PersistentDisk,
} from '../schemas/dcs';
import { compareProviderVersions, PROVIDER_MIN_PERSISTENT_DISKS } from '../versions';
import { planEditStrategy } from './edit-strategy';
import { planPatchIpPool } from './ip-pool';
import { planMessage, type PlanMessage } from './messages';
import { nextRevisionName } from './names';
import type { Plan } from './plan';
import { planUpgradeInfra } from './upgrade';

/**
 * R-DISK-5 (issue 12): the guided migration of a worker pool from the legacy disk layout
 * (`/var/cpaas` a disk of the machine template) to pool-managed persistent disks (a
 * `persistentDisk` of every IP pool entry, provider ≥ 1.0.16), as ordered steps: what changes on
 * which objects, the console operation and kubectl commands that do it (made by the very planners
 * of those operations, so the commands are the ones the console would send), what happens to
 * the data of each replaced VM, and, where the documents do not settle a step, that they do not.
 *
 * Read-only guidance, never executed as one plan: of its steps only maxSurge 0 (R-MD-3) is
 * harmless and reversible; appending the disks creates DCS volumes that can never be removed from
 * the pool (R-DISK-2), and the rolling update deletes every VM's legacy /var/cpaas disk with its
 * data, which the documents neither copy nor say may be lost. Each step runs through its own
 * operation (O-EDIT-STRATEGY, O-EDIT-IP-POOL, O-UPGRADE-INFRA) with its own preview, so the
 * operator decides at each of them.
 */

export type MigrationStepId = 'provider' | 'maxSurge' | 'appendDisks' | 'switchTemplate' | 'verify';

export interface MigrationStep {
  id: MigrationStepId;
  title: PlanMessage;
  /** done: nothing left to do; todo: the next step(s); blocked: an earlier step must come first. */
  status: 'done' | 'todo' | 'blocked';
  /** The objects the step changes. */
  objects: { kind: Plan['target']['kind']; name: string }[];
  /** The console operation that carries the step out, with its own preview. */
  operation?: Plan['operation'];
  kubectl: string[];
  issues: RuleIssue[];
  /** What the step does, to machines and to data. */
  effects: PlanMessage[];
  /** What the documents do not settle about this step: said, not guessed. */
  unsettled: PlanMessage[];
}

export interface DiskMigrationPlan {
  pool: string;
  namespace: string;
  /** The pool's template mounts /var/cpaas and the provider wants it in the pool (R-DISK-5). */
  legacy: boolean;
  /** Always false: see the module's comment; `readOnlyReason` says why, in the user's terms. */
  applies: false;
  readOnlyReason: PlanMessage;
  steps: MigrationStep[];
}

export interface DiskMigrationCurrent {
  machineDeployment: MachineDeployment;
  machineTemplate: DCSMachineTemplate | undefined;
  ipPool: DCSIpHostnamePool | undefined;
}

const isZero = (v: unknown) => v === 0 || v === '0%';

/** The persistent disk each entry gets: the legacy template disk's size, datastore and format. */
function cpaasDisk(
  template: DCSMachineTemplate | undefined,
  existing: readonly PersistentDisk[],
): PersistentDisk {
  const disks = template?.spec?.template.spec.vmConfig?.dcsMachineDiskSpec ?? [];
  const legacy = disks[templateMountIndex(disks, CPAAS_MOUNT)];
  const slot = existing.reduce((n, d) => Math.max(n, d.slot + 1), 1);
  return {
    slot,
    quantityGB: legacy?.quantity ?? 40,
    ...(legacy?.datastoreClusterName ? { datastoreClusterName: legacy.datastoreClusterName } : {}),
    path: CPAAS_MOUNT,
    format: legacy?.format ?? 'xfs',
  };
}

/** The template spec as a request carries it, without its /var/cpaas disk (and without the pool ref). */
function withoutCpaas(spec: DCSMachineSpec): MachineTemplateSpecInput {
  const rest: Partial<DCSMachineSpec> = { ...spec };
  delete rest.ipHostPoolRef;
  delete rest.providerID;
  const disks = spec.vmConfig?.dcsMachineDiskSpec ?? [];
  const index = templateMountIndex(disks, CPAAS_MOUNT);
  return {
    ...rest,
    vmTemplateName: spec.vmTemplateName,
    vmConfig: { ...spec.vmConfig, dcsMachineDiskSpec: disks.filter((_d, i) => i !== index) },
  };
}

const hasCpaas = (disks: readonly PersistentDisk[] | undefined) =>
  (disks ?? []).some((d) => d.path?.replace(/\/+$/, '') === CPAAS_MOUNT);

/** R-DISK-5: the migration plan of one worker pool. */
export function planDiskMigration(
  current: DiskMigrationCurrent,
  ctx: ValidationContext,
): DiskMigrationPlan {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const rv = md.metadata.resourceVersion ?? '';
  const tpl = current.machineTemplate;
  const tplName = tpl?.metadata.name ?? md.spec?.template.spec.infrastructureRef.name ?? '';
  const tplSpec = tpl?.spec?.template.spec;
  const tplDisks = tplSpec?.vmConfig?.dcsMachineDiskSpec ?? [];
  const templateHasCpaas = templateMountIndex(tplDisks, CPAAS_MOUNT) >= 0;
  const pool = current.ipPool;
  const poolName = pool?.metadata.name ?? tplSpec?.ipHostPoolRef.name ?? '';
  const entries = pool?.spec?.pool ?? [];
  const provider = ctx.providerVersion;
  const providerOk =
    provider !== undefined && compareProviderVersions(provider, PROVIDER_MIN_PERSISTENT_DISKS) >= 0;
  const steps: MigrationStep[] = [];

  // 1. R-VER-2: pool-managed persistent disks need provider >= 1.0.16.
  steps.push({
    id: 'provider',
    // The title says what is true: done, or the upgrade still to do.
    title: planMessage(providerOk ? 'plan.migration.provider' : 'plan.migration.providerTooOld', {
      version: provider ?? '?',
      min: PROVIDER_MIN_PERSISTENT_DISKS,
    }),
    status: providerOk ? 'done' : 'todo',
    objects: [],
    kubectl: [
      `kubectl get deployment -A -l cluster.x-k8s.io/provider=infrastructure-dcs -o jsonpath='{.items[*].metadata.labels.app\\.kubernetes\\.io/version}'`,
    ],
    issues: [],
    effects: [],
    unsettled: [],
  });

  // 2. R-MD-3: machines replaced one at a time, so each fixed IP slot and its disk move together.
  const surge = md.spec?.strategy?.rollingUpdate?.maxSurge;
  const surgeDone = surge !== undefined && isZero(surge);
  const surgePlan = surgeDone
    ? undefined
    : planEditStrategy({ resourceVersion: rv, maxSurge: 0 }, { machineDeployment: md }, ctx);
  steps.push({
    id: 'maxSurge',
    title: planMessage('plan.migration.maxSurge', { name, from: String(surge ?? 1) }),
    status: surgeDone ? 'done' : providerOk ? 'todo' : 'blocked',
    objects: [{ kind: 'MachineDeployment', name }],
    operation: 'O-EDIT-STRATEGY',
    kubectl: surgePlan?.kubectl ?? [],
    issues: surgePlan?.issues ?? [],
    effects: [planMessage('plan.effect.surgeZeroOneFewer')],
    unsettled: [],
  });

  // 3. Append the /var/cpaas persistent disk to every entry that lacks it (R-POOL-4, R-DISK-1).
  const lacking = entries.filter((e) => !hasCpaas(e.persistentDisk));
  const appendPlan =
    pool && lacking.length
      ? planPatchIpPool(
          poolName,
          {
            resourceVersion: pool.metadata.resourceVersion ?? '',
            append: [],
            remove: [],
            update: lacking.map((e) => ({
              ip: e.ip,
              persistentDisk: [...(e.persistentDisk ?? []), cpaasDisk(tpl, e.persistentDisk ?? [])],
            })),
          },
          pool,
          ctx,
        )
      : undefined;
  const disksDone = pool !== undefined && lacking.length === 0;
  steps.push({
    id: 'appendDisks',
    title: planMessage('plan.migration.appendDisks', {
      pool: poolName,
      count: lacking.length,
      size: cpaasDisk(tpl, []).quantityGB,
    }),
    status: disksDone ? 'done' : providerOk && surgeDone ? 'todo' : 'blocked',
    objects: [{ kind: 'DCSIpHostnamePool', name: poolName }],
    operation: 'O-EDIT-IP-POOL',
    kubectl: appendPlan?.kubectl ?? [],
    issues: appendPlan?.issues ?? [],
    effects: [
      planMessage('plan.migration.volumesCreated'),
      planMessage('plan.effect.diskAttachedNotMounted'),
      planMessage('plan.migration.appendIrreversible'),
    ],
    unsettled: [planMessage('plan.migration.unsettled.bothDisks', { name })],
  });

  // 4. A copy of the machine template without /var/cpaas (R-TPL-4), then the pool switches to it:
  // a rolling update, one VM at a time.
  const newName = nextRevisionName(tplName, ctx.namesInUse.machineTemplates);
  const switchPlan =
    tplSpec && templateHasCpaas
      ? planUpgradeInfra(
          {
            operation: 'infrastructure',
            resourceVersion: rv,
            machineTemplate: {
              name: newName,
              spec: withoutCpaas(tplSpec),
            },
          },
          { machineDeployment: md, machineTemplate: tpl },
          ctx,
        )
      : undefined;
  const replicas = md.spec?.replicas ?? 0;
  steps.push({
    id: 'switchTemplate',
    title: planMessage('plan.migration.switchTemplate', { name, template: newName, from: tplName }),
    status: !templateHasCpaas ? 'done' : disksDone && surgeDone ? 'todo' : 'blocked',
    objects: [
      { kind: 'DCSMachineTemplate', name: newName },
      { kind: 'MachineDeployment', name },
    ],
    operation: 'O-UPGRADE-INFRA',
    kubectl: switchPlan?.kubectl ?? [],
    // Before step 3 the rules rightly find /var/cpaas nowhere on the new template's machines;
    // that is the order's point, not a problem of this step.
    issues: disksDone ? (switchPlan?.issues ?? []) : [],
    effects: [
      planMessage('plan.migration.rolling', { replicas }),
      planMessage('plan.migration.dataOnReplacedVm'),
      planMessage('plan.migration.newDiskFormatted'),
    ],
    unsettled: [
      planMessage('plan.migration.unsettled.data'),
      planMessage('plan.migration.unsettled.reuse'),
    ],
  });

  // 5. What the documents check afterwards.
  steps.push({
    id: 'verify',
    title: planMessage('plan.migration.verify', { pool: poolName, name }),
    status: templateHasCpaas ? 'blocked' : 'todo',
    objects: [],
    kubectl: [
      `kubectl get dcsiphostnamepool ${poolName} -n ${ctx.namespace} -o yaml`,
      `kubectl get machines -n ${ctx.namespace} -l cluster.x-k8s.io/deployment-name=${name}`,
      `kubectl get machinedeployment ${name} -n ${ctx.namespace}`,
    ],
    issues: [],
    effects: [],
    unsettled: [],
  });

  return {
    pool: name,
    namespace: ctx.namespace,
    legacy: providerOk && templateHasCpaas,
    applies: false,
    readOnlyReason: planMessage('plan.migration.readOnly'),
    steps,
  };
}
