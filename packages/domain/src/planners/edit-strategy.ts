import type { EditStrategyField, EditStrategyRequest } from '../requests/edit-strategy';
import type { ValidationContext } from '../rules/context';
import {
  strategyAfterEdit,
  validateEditStrategy,
  type EditStrategyPool,
} from '../rules/strategy-edit';
import type { MachineDeployment } from '../schemas/capi';
import type { IntOrString } from '../schemas/meta';
import { withinJsonBounds } from './bounds';
import { mergeIssues, staleIssue } from './issues';
import {
  addOp,
  jsonEqual,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { finishPlan, jsonPatchStep } from './objects';
import type { Plan, PlanStep } from './plan';
import { isRolloutInProgress, rolloutImpact } from './rollout';
import { ipPoolNameOf, specReplicas } from './scale';

/**
 * O-EDIT-STRATEGY (issue 12): an existing worker pool's rollout settings (maxSurge,
 * maxUnavailable: R-MD-2, R-MD-3) and node timeouts (nodeDrainTimeout, nodeDeletionTimeout,
 * nodeVolumeDetachTimeout), as one JSON patch of the MachineDeployment. None of these fields is
 * part of the machine template's hash in Cluster API: the change replaces no machine; the
 * MachineDeployment controller copies the timeouts to its MachineSets and Machines in place, and a
 * rolling update in progress goes on with the new maxSurge/maxUnavailable from its next step. The
 * patch tests the resourceVersion the user saw and the current value of each field it changes,
 * and touches nothing else (a field the request leaves out is not written).
 */

export interface EditStrategyCurrent {
  machineDeployment: MachineDeployment;
}

const STRATEGY_FIELDS = ['maxSurge', 'maxUnavailable'] as const;
const TIMEOUT_FIELDS = [
  'nodeDrainTimeout',
  'nodeDeletionTimeout',
  'nodeVolumeDetachTimeout',
] as const;

/** What the rules need of the pool, from its MachineDeployment (the web builds it from its view). */
export function editStrategyPoolOf(
  md: MachineDeployment,
  ctx: ValidationContext,
): EditStrategyPool {
  const strategy = md.spec?.strategy;
  return {
    name: md.metadata.name ?? '',
    replicas: specReplicas(md),
    strategyType: strategy?.type,
    maxSurge: strategy?.rollingUpdate?.maxSurge,
    maxUnavailable: strategy?.rollingUpdate?.maxUnavailable,
    ipPoolName: ipPoolNameOf(md, ctx),
  };
}

/** The current value of each field the request can change. */
export function currentStrategyOf(
  md: MachineDeployment,
): Record<EditStrategyField, IntOrString | undefined> {
  const ru = md.spec?.strategy?.rollingUpdate;
  const spec = md.spec?.template.spec;
  return {
    maxSurge: ru?.maxSurge,
    maxUnavailable: ru?.maxUnavailable,
    nodeDrainTimeout: spec?.nodeDrainTimeout,
    nodeDeletionTimeout: spec?.nodeDeletionTimeout,
    nodeVolumeDetachTimeout: spec?.nodeVolumeDetachTimeout,
  };
}

/** The fields whose requested value differs from the current one, in a stable order. */
export function changedStrategyFields(
  req: EditStrategyRequest,
  md: MachineDeployment,
): EditStrategyField[] {
  const current = currentStrategyOf(md);
  // `null` asks for the field's removal: a change only when the field is there.
  return [...STRATEGY_FIELDS, ...TIMEOUT_FIELDS].filter(
    (f) => req[f] !== undefined && !jsonEqual(req[f] ?? undefined, current[f]),
  );
}

/**
 * Test-and-replace of a field that is set; add of one that is not (its parent exists);
 * test-and-remove when the user clears it (`null`), so that Cluster API's default applies again.
 */
function setOps(path: string, current: unknown, value: unknown): JsonPatchOp[] {
  if (value === null) return [testOp(path, current), removeOp(path)];
  return current === undefined
    ? [addOp(path, value)]
    : [testOp(path, current), replaceOp(path, value)];
}

function patchOps(
  req: EditStrategyRequest,
  md: MachineDeployment,
  changed: readonly EditStrategyField[],
): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [testResourceVersion(req.resourceVersion)];
  const current = currentStrategyOf(md);
  const strategy = md.spec?.strategy;
  const surge = changed.filter((f) => f === 'maxSurge' || f === 'maxUnavailable');
  if (surge.length) {
    const values = Object.fromEntries(surge.map((f) => [f, req[f]]));
    // A missing parent is added whole, with only the fields the user set: Cluster API defaults
    // the others (type RollingUpdate, maxSurge 1, maxUnavailable 0) as the rules assumed.
    if (!strategy) ops.push(addOp(pointer('spec', 'strategy'), { rollingUpdate: values }));
    else if (!strategy.rollingUpdate)
      ops.push(addOp(pointer('spec', 'strategy', 'rollingUpdate'), values));
    else
      for (const f of surge)
        ops.push(...setOps(pointer('spec', 'strategy', 'rollingUpdate', f), current[f], req[f]));
  }
  for (const f of changed) {
    if (f === 'maxSurge' || f === 'maxUnavailable') continue;
    ops.push(...setOps(pointer('spec', 'template', 'spec', f), current[f], req[f]));
  }
  return ops;
}

const shown = (v: IntOrString | null | undefined): string =>
  v === undefined || v === null ? '—' : String(v);

/** O-EDIT-STRATEGY: see the module's comment. */
export function planEditStrategy(
  req: EditStrategyRequest,
  current: EditStrategyCurrent,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: 'O-EDIT-STRATEGY',
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: current.machineDeployment.metadata.name ?? '' },
    },
    () => strategyPlan(req, current, ctx),
  );
}

function strategyPlan(
  req: EditStrategyRequest,
  current: EditStrategyCurrent,
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const before = currentStrategyOf(md);
  const changed = changedStrategyFields(req, md);
  const steps: PlanStep[] = [];
  if (changed.length) {
    const changes = changed.map((f) => `${f} ${shown(before[f])} → ${shown(req[f])}`).join(', ');
    steps.push(
      jsonPatchStep(
        md,
        'MachineDeployment',
        patchOps(req, md, changed),
        planMessage('plan.step.editStrategy', { name, changes }),
      ),
    );
  }

  const pool = editStrategyPoolOf(md, ctx);
  const replicas = pool.replicas;
  const notes: PlanMessage[] = [];
  if (!changed.length) {
    notes.push(planMessage('plan.effect.nothingToChange', { name }));
  } else {
    notes.push(planMessage('plan.effect.strategyInPlace'));
    const strategyChanged = changed.some((f) => f === 'maxSurge' || f === 'maxUnavailable');
    const timeoutsChanged = changed.some((f) => !(f === 'maxSurge' || f === 'maxUnavailable'));
    const rolling = isRolloutInProgress(md);
    if (strategyChanged && pool.strategyType !== 'OnDelete') {
      const pace = (s: IntOrString | undefined, u: IntOrString | undefined) => {
        try {
          return rolloutImpact(replicas, s, u).atATime;
        } catch {
          // An invalid value is R-MD-2's error; the pace is then not said.
          return undefined;
        }
      };
      const was = pace(before.maxSurge, before.maxUnavailable);
      const after = strategyAfterEdit(req, before);
      const now = pace(after.maxSurge, after.maxUnavailable);
      if (was !== undefined && now !== undefined && replicas > 0) {
        notes.push(
          rolling
            ? planMessage('plan.effect.rolloutContinuesWithStrategy', {
                name,
                updated: md.status?.updatedReplicas ?? 0,
                replicas,
                atATime: now,
                before: was,
              })
            : planMessage('plan.effect.nextRolloutPace', { name, atATime: now, before: was }),
        );
      }
      if (req.maxSurge !== undefined && req.maxSurge !== null && isZero(req.maxSurge)) {
        notes.push(planMessage('plan.effect.surgeZeroOneFewer'));
      }
    }
    const removed = changed.filter((f) => req[f] === null);
    if (removed.length) {
      notes.push(
        planMessage('plan.effect.strategyFieldsRemoved', { name, fields: removed.join(', ') }),
      );
    }
    if (timeoutsChanged && rolling) {
      notes.push(planMessage('plan.effect.timeoutsInFlight', { name }));
    }
  }

  return finishPlan({
    operation: 'O-EDIT-STRATEGY',
    namespace: ctx.namespace,
    target: { kind: 'MachineDeployment', name },
    steps,
    issues: mergeIssues(validateEditStrategy(req, pool, ctx), [
      ...staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
    ]),
    known: [md],
    effects: { notes },
  });
}

/** 0 or "0%": no extra machine whatever the replicas. */
const isZero = (v: IntOrString): boolean => v === 0 || v === '0%';
