/**
 * The `pods/eviction` subresource: POST a policy/v1 (or v1beta1) Eviction, with the semantics of
 * kube-apiserver's pkg/registry/core/pod/storage/eviction.go. A Pod that is finished, Pending or
 * already terminating is deleted without looking at budgets; otherwise the one
 * PodDisruptionBudget whose selector matches it must allow a disruption: it is decremented
 * (`status.disruptionsAllowed`, the Pod noted in `status.disruptedPods`) and the Pod deleted
 * gracefully. No budget: the Pod is deleted. A budget allowing none: 429 with the budget's cause;
 * one whose status is older than its spec: 429 "still being processed"; more than one: 500.
 */
import { isObject } from '../json';
import type { Operations, WriteContext } from '../operations';
import type { Registry, ResourceType } from '../registry';
import { formatLabelSelector, matchesLabels, parseLabelSelector } from '../selectors';
import { ApiError, badRequest, forbidden, notFound, type StatusBody } from '../status';
import type { Store } from '../store/store';
import type { KubeObject } from '../types';
import { isPodReady } from './pods';

/** The PDB's status.disruptedPods map may hold at most this many Pods (MaxDisruptedPodSize). */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** Conflicts on the budget are retried this often (EvictionsRetry: 20 steps). */
const RETRIES = 20;

export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export interface EvictionDeps {
  registry: Registry;
  store: Store;
  ops: Operations;
}

export interface EvictionAnswer {
  code: number;
  body: StatusBody | Record<string, unknown>;
}

const POD_GR = { group: '', resource: 'pods' };
const PDB_GR = { group: 'policy', resource: 'poddisruptionbudget' };

function tooManyRequests(cause: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TooManyRequests', EVICTION_REFUSED, {
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

const objOf = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const numOf = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** canIgnorePDB: a finished, Pending or terminating Pod is deleted without asking a budget. */
function canIgnorePdb(pod: KubeObject): boolean {
  const phase = objOf(pod.status).phase;
  return (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    typeof pod.metadata.deletionTimestamp === 'string'
  );
}

/** The budgets whose selector matches the Pod; an empty or invalid selector matches nothing. */
function budgetsOf(deps: EvictionDeps, pdbRt: ResourceType, pod: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const s of deps.store.list(pdbRt, pod.metadata.namespace)) {
    const pdb = s.object();
    const sel = objOf(pdb.spec).selector;
    let req;
    try {
      req = parseLabelSelector(formatLabelSelector(sel));
    } catch {
      continue;
    }
    if (req.length === 0) continue;
    if (matchesLabels(req, pod.metadata.labels)) out.push(pdb);
  }
  return out;
}

interface DeleteOpts {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

function deleteOptionsOf(body: Record<string, unknown>, queryDryRun: boolean): DeleteOpts {
  const d = objOf(body.deleteOptions);
  const dryRunList = Array.isArray(d.dryRun) ? d.dryRun : [];
  if (dryRunList.some((x) => x !== 'All'))
    throw badRequest(
      `dryRun: Unsupported value: ${JSON.stringify(dryRunList[0])}: supported values: "All"`,
    );
  const out: DeleteOpts = { dryRun: queryDryRun || dryRunList.includes('All') };
  if (d.gracePeriodSeconds !== undefined && d.gracePeriodSeconds !== null) {
    if (typeof d.gracePeriodSeconds !== 'number' || !Number.isInteger(d.gracePeriodSeconds))
      throw badRequest('deleteOptions.gracePeriodSeconds: must be an integer');
    out.gracePeriodSeconds = d.gracePeriodSeconds;
  }
  const pre = objOf(d.preconditions);
  const preconditions: { uid?: string; resourceVersion?: string } = {};
  if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
  if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  if (preconditions.uid !== undefined || preconditions.resourceVersion !== undefined)
    out.preconditions = preconditions;
  return out;
}

const success = (): EvictionAnswer => ({
  code: 201,
  body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
});

/** Evicts `namespace/name` as the Eviction `body` asks; throws the ApiError kube would answer. */
export async function evictPod(
  deps: EvictionDeps,
  podRt: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  ctx: WriteContext,
): Promise<EvictionAnswer> {
  if (!isObject(body)) throw badRequest('the body must be a policy/v1 Eviction object');
  if (body.kind !== undefined && body.kind !== 'Eviction')
    throw badRequest(`not a Eviction object: ${JSON.stringify(body.kind)}`);
  const meta = objOf(body.metadata);
  if (meta.name !== name) throw badRequest('name in URL does not match name in Eviction object');
  const pdbRt = deps.registry.lookup('policy', 'v1', 'poddisruptionbudgets');
  if (!pdbRt) throw new Error('poddisruptionbudgets are not registered');
  const opts = deleteOptionsOf(body, ctx.dryRun);
  const wctx: WriteContext = { ...ctx, dryRun: opts.dryRun };
  const del = async (resourceVersion?: string) => {
    const preconditions = resourceVersion
      ? { ...(opts.preconditions ?? {}), resourceVersion }
      : opts.preconditions;
    await deps.ops.delete(
      podRt,
      namespace,
      name,
      {
        ...(opts.gracePeriodSeconds !== undefined
          ? { gracePeriodSeconds: opts.gracePeriodSeconds }
          : {}),
        ...(preconditions ? { preconditions } : {}),
      },
      wctx,
    );
  };

  const stored = deps.store.get(podRt, namespace, name);
  if (!stored) throw notFound(POD_GR, name);
  const pod = stored.object();
  if (canIgnorePdb(pod)) {
    // shouldEnforceResourceVersion: a Pending Pod is deleted at the version read, unless the
    // caller named one.
    const terminal =
      ['Succeeded', 'Failed'].includes(String(objOf(pod.status).phase)) ||
      typeof pod.metadata.deletionTimestamp === 'string';
    await del(terminal || opts.preconditions?.resourceVersion ? undefined : String(stored.rv));
    return success();
  }

  const budgets = budgetsOf(deps, pdbRt, pod);
  if (budgets.length > 1) {
    return {
      code: 500,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: MULTIPLE_PDBS,
        code: 500,
      },
    };
  }
  const budget = budgets[0];
  if (!budget) {
    await del();
    return success();
  }
  const pdbName = budget.metadata.name ?? '';
  const status = objOf(budget.status);
  // An unready Pod does not count as healthy: with enough healthy ones it goes without a decrement.
  if (
    !isPodReady(pod) &&
    numOf(status.currentHealthy) >= numOf(status.desiredHealthy) &&
    numOf(status.desiredHealthy) > 0
  ) {
    try {
      await del(opts.preconditions?.resourceVersion ?? String(stored.rv));
    } catch (e) {
      if (e instanceof ApiError && e.code === 409 && !opts.preconditions?.resourceVersion)
        throw tooManyRequests(
          `The disruption budget ${pdbName} is still being processed by the server.`,
          10,
        );
      throw e;
    }
    return success();
  }

  for (let attempt = 0; ; attempt++) {
    const current = deps.store.get(pdbRt, namespace, pdbName);
    if (!current) throw notFound({ group: 'policy', resource: 'poddisruptionbudgets' }, pdbName);
    const pdb = current.object();
    const st = objOf(pdb.status);
    // checkAndDecrement
    if (numOf(st.observedGeneration) < numOf(pdb.metadata.generation))
      throw tooManyRequests(
        `The disruption budget ${pdbName} is still being processed by the server.`,
        10,
      );
    const allowed = numOf(st.disruptionsAllowed);
    if (allowed < 0) throw forbidden(PDB_GR, pdbName, 'pdb disruptions allowed is negative');
    const disrupted = objOf(st.disruptedPods);
    if (Object.keys(disrupted).length > MAX_DISRUPTED_POD_SIZE)
      throw forbidden(
        PDB_GR,
        pdbName,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      );
    if (allowed === 0)
      throw tooManyRequests(
        `The disruption budget ${pdbName} needs ${String(numOf(st.desiredHealthy))} healthy pods and has ${String(numOf(st.currentHealthy))} currently`,
        0,
      );
    if (wctx.dryRun) break;
    st.disruptionsAllowed = allowed - 1;
    if (allowed - 1 === 0) setDisruptionAllowed(st);
    st.disruptedPods = {
      ...disrupted,
      [name]: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    };
    pdb.status = st;
    try {
      await deps.ops.update(pdbRt, namespace, pdbName, pdb, { ...wctx, warnings: [] }, 'status');
      break;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 409) || attempt >= RETRIES - 1) {
        if (e instanceof ApiError && e.code === 409)
          throw new ApiError(
            504,
            'Timeout',
            `couldn't update PodDisruptionBudget "${pdbName}" due to conflicts`,
            {
              retryAfterSeconds: 10,
            },
          );
        throw e;
      }
    }
  }
  await del();
  return success();
}

/**
 * pdbhelper.UpdateDisruptionAllowedCondition: DisruptionAllowed True (SufficientPods) while
 * disruptions are allowed, else False (InsufficientPods); the transition time moves only when the
 * status does.
 */
export function setDisruptionAllowed(status: Record<string, unknown>): void {
  const allowed = numOf(status.disruptionsAllowed) > 0;
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const want = allowed ? 'True' : 'False';
  const reason = allowed ? 'SufficientPods' : 'InsufficientPods';
  const observedGeneration = numOf(status.observedGeneration);
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  const before = i >= 0 ? conditions[i] : undefined;
  const lastTransitionTime =
    before?.status === want && typeof before.lastTransitionTime === 'string'
      ? before.lastTransitionTime
      : new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const next = {
    type: 'DisruptionAllowed',
    status: want,
    observedGeneration,
    lastTransitionTime,
    reason,
    message: '',
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  status.conditions = conditions;
}
