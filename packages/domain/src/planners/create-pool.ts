import { LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME, LABEL_POOL_NAME } from '../labels';
import type { CreatePoolRequest } from '../requests';
import type { ValidationContext } from '../rules/context';
import type { RuleIssue } from '../rules/issue';
import { validateCreatePool } from '../rules/validators';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { MachineDeployment } from '../schemas/capi';
import type { DCSIpHostnamePool, DCSMachineTemplate } from '../schemas/dcs';
import { normalizeKubeVersion } from '../versions';
import { appendToIpPoolStep, createIpPoolStep } from './ip-pool';
import { mergeIssues, notFoundIssue, poolChangedIssue } from './issues';
import { poolEntryField, templateSpecField, withinJsonBounds } from './bounds';
import { jsonClone } from './json-patch';
import { planMessage } from './messages';
import {
  API_BOOTSTRAP,
  API_CAPI,
  API_INFRASTRUCTURE,
  createStep,
  finishPlan,
  forPool,
  newMetadata,
  refTo,
} from './objects';
import type { Plan, PlanStep } from './plan';

/**
 * O-CREATE-POOL: IP pool, machine template, bootstrap template, MachineDeployment, in that order
 * (each names the one before), every create with an undo, so that a failure half-way leaves no
 * half-made pool behind.
 */

/** The reference's MachineDeployment (step 4) sets these; the form offers them as defaults. */
export const DEFAULT_NODE_DRAIN_TIMEOUT = '1m';
export const DEFAULT_NODE_DELETION_TIMEOUT = '5m';

/** The objects the user saw that the creation touches: the existing IP pool, if one is used. */
export interface CreatePoolCurrent {
  ipPool?: DCSIpHostnamePool;
}

/** The MachineDeployment of the reference's step 4 for a create request. */
export function machineDeploymentFor(
  req: CreatePoolRequest,
  namespace: string,
  clusterName: string,
): MachineDeployment {
  const name = req.name;
  const { maxSurge, maxUnavailable, deletePolicy } = req.strategy;
  return {
    apiVersion: API_CAPI,
    kind: 'MachineDeployment',
    metadata: newMetadata(name, namespace, clusterName),
    spec: {
      clusterName,
      replicas: req.replicas,
      // What Cluster API's defaulting makes of the reference's `matchLabels: null`, written out so
      // that selector and template labels agree on any API server.
      selector: {
        matchLabels: { [LABEL_CLUSTER_NAME]: clusterName, [LABEL_DEPLOYMENT_NAME]: name },
      },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge, maxUnavailable, ...(deletePolicy ? { deletePolicy } : {}) },
      },
      template: {
        metadata: {
          labels: {
            [LABEL_CLUSTER_NAME]: clusterName,
            [LABEL_DEPLOYMENT_NAME]: name,
            [LABEL_POOL_NAME]: name,
          },
        },
        spec: {
          clusterName,
          version: normalizeKubeVersion(req.version),
          nodeDrainTimeout: req.nodeDrainTimeout ?? DEFAULT_NODE_DRAIN_TIMEOUT,
          nodeDeletionTimeout: req.nodeDeletionTimeout ?? DEFAULT_NODE_DELETION_TIMEOUT,
          ...(req.nodeVolumeDetachTimeout === undefined
            ? {}
            : { nodeVolumeDetachTimeout: req.nodeVolumeDetachTimeout }),
          bootstrap: {
            configRef: refTo('KubeadmConfigTemplate', req.bootstrap.name, namespace),
          },
          infrastructureRef: refTo('DCSMachineTemplate', req.machineTemplate.name, namespace),
        },
      },
    },
  };
}

function ipPoolStep(
  req: CreatePoolRequest,
  current: CreatePoolCurrent,
  ctx: ValidationContext,
): { step?: PlanStep; issues: RuleIssue[] } {
  const p = req.ipPool;
  if (p.mode === 'new') {
    return {
      step: createIpPoolStep(p.name, ctx.namespace, p.entries, ctx.clusterName),
      issues: [],
    };
  }
  if (!p.append.length) return { issues: [] };
  const pool = current.ipPool;
  if (pool?.metadata.name !== p.name) {
    return { issues: [notFoundIssue('DCSIpHostnamePool', p.name, 'ipPool.name')] };
  }
  const step = appendToIpPoolStep(pool, p.append, p.resourceVersion);
  return {
    ...(step ? { step } : {}),
    issues: poolChangedIssue(
      p.name,
      p.resourceVersion,
      pool.metadata.resourceVersion,
      'ipPool.resourceVersion',
    ),
  };
}

/** O-CREATE-POOL, within the JSON bounds (bounds.ts). */
export function planCreatePool(
  req: CreatePoolRequest,
  current: CreatePoolCurrent,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: 'O-CREATE-POOL',
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: req.name },
    },
    () => createPoolPlan(req, current, ctx),
    (kind, path) =>
      kind === 'DCSIpHostnamePool'
        ? req.ipPool.mode === 'new'
          ? poolEntryField('ipPool.entries')(kind, path)
          : poolEntryField('ipPool.append', current.ipPool?.spec?.pool?.length ?? 0)(kind, path)
        : templateSpecField({
            DCSMachineTemplate: 'machineTemplate.spec',
            KubeadmConfigTemplate: 'bootstrap.spec',
          })(kind, path),
  );
}

function createPoolPlan(
  req: CreatePoolRequest,
  current: CreatePoolCurrent,
  ctx: ValidationContext,
): Plan {
  const ns = ctx.namespace;
  const cluster = ctx.clusterName;
  const steps: PlanStep[] = [];
  const issues: RuleIssue[] = [];

  const pool = ipPoolStep(req, current, ctx);
  issues.push(...pool.issues);
  if (pool.step) steps.push(pool.step);

  const mt = req.machineTemplate;
  if (mt.mode === 'new') {
    // Labelled for this pool: deleting it later finds the templates of its whole history.
    const body = forPool<DCSMachineTemplate>(
      {
        apiVersion: API_INFRASTRUCTURE,
        kind: 'DCSMachineTemplate',
        metadata: newMetadata(mt.name, ns, cluster),
        spec: {
          template: { spec: { ...jsonClone(mt.spec), ipHostPoolRef: { name: req.ipPool.name } } },
        },
      },
      req.name,
    );
    steps.push(
      createStep(
        'DCSMachineTemplate',
        body,
        planMessage('plan.step.createMachineTemplate', { name: mt.name }),
      ),
    );
  }

  const bt = req.bootstrap;
  if (bt.mode === 'new') {
    const body = forPool<KubeadmConfigTemplate>(
      {
        apiVersion: API_BOOTSTRAP,
        kind: 'KubeadmConfigTemplate',
        metadata: newMetadata(bt.name, ns, cluster),
        spec: { template: { spec: jsonClone(bt.spec) } },
      },
      req.name,
    );
    steps.push(
      createStep(
        'KubeadmConfigTemplate',
        body,
        planMessage('plan.step.createBootstrapTemplate', { name: bt.name }),
      ),
    );
  }

  const md = machineDeploymentFor(req, ns, cluster);
  steps.push(
    createStep(
      'MachineDeployment',
      md,
      planMessage('plan.step.createMachineDeployment', {
        name: req.name,
        replicas: req.replicas,
        version: normalizeKubeVersion(req.version),
      }),
      'Foreground',
    ),
  );

  return finishPlan({
    operation: 'O-CREATE-POOL',
    namespace: ns,
    target: { kind: 'MachineDeployment', name: req.name },
    steps,
    // Existing templates and pool, their names and contents: the rules (R-MD-5, R-POOL-1 …).
    issues: mergeIssues(validateCreatePool(req, ctx), issues),
    known: [current.ipPool],
    effects: {
      created: steps
        .filter((s) => s.verb === 'create')
        .map((s) => ({ kind: s.kind, name: s.name })),
      replicas: { from: 0, to: req.replicas },
    },
  });
}
