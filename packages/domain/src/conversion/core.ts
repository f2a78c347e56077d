import {
  boolIntent,
  int32Intent,
  restoredAt,
  setOrDelete,
  type ConversionContext,
} from './context';
import {
  dropIfEmpty,
  ensure,
  fromSeconds,
  isEmptyObject,
  isObject,
  obj,
  put,
  take,
  toSeconds,
  type Json,
  type JsonObject,
} from './json';
import { isDefinedRef, toContractRef, toObjectRef } from './refs';

/**
 * `cluster.x-k8s.io`: Cluster, MachineDeployment, MachineSet, Machine, MachineHealthCheck,
 * MachineDrainRule, as upstream's `api/core/v1beta1/conversion.go` (and the generated
 * `zz_generated.conversion.go` beside it) convert them. `up` is v1beta1 → v1beta2 (`ConvertTo`,
 * into the hub of Cluster API), `down` is v1beta2 → v1beta1 (`ConvertFrom`). Each works in place
 * on a clone; what the target version has no field for is pruned afterwards (`prune.ts`), so
 * only what moves or changes shape is written here. Every field both versions hold at the same
 * path (labels, selector, replicas, version, readinessGates, taints, status.versions …) is what
 * the generated code copies as is, and is left alone.
 */

export interface KindConversion {
  up(o: JsonObject, ctx: ConversionContext): void;
  down(o: JsonObject, ctx: ConversionContext): void;
  /** Whether `ConvertFrom` stores the v1beta2 object in the conversion-data annotation. */
  readonly marshalsData: boolean;
}

const DELETION_TIMEOUTS = [
  ['nodeDrainTimeout', 'nodeDrainTimeoutSeconds'],
  ['nodeVolumeDetachTimeout', 'nodeVolumeDetachTimeoutSeconds'],
  ['nodeDeletionTimeout', 'nodeDeletionTimeoutSeconds'],
] as const;

/** v1beta1's three node timeouts of `from` → v1beta2's `to.deletion.*Seconds`. */
export function timeoutsUp(from: JsonObject, to: JsonObject, path: string): void {
  for (const [v1, v2] of DELETION_TIMEOUTS) {
    const seconds = toSeconds(take(from, v1), `${path}.${v1}`);
    if (seconds !== undefined) ensure(to, 'deletion')[v2] = seconds;
  }
}

/** v1beta2's `from.deletion.*Seconds` → v1beta1's three node timeouts on `to`. */
export function timeoutsDown(from: JsonObject, to: JsonObject, path: string): void {
  const deletion = obj(from, 'deletion');
  for (const [v1, v2] of DELETION_TIMEOUTS) {
    put(to, v1, fromSeconds(deletion?.[v2], `${path}.deletion.${v2}`));
    if (deletion) Reflect.deleteProperty(deletion, v2);
  }
  dropIfEmpty(from, 'deletion');
}

/** MachineSpec (a Machine's spec, a template's spec), v1beta1 → v1beta2. */
function machineSpecUp(spec: JsonObject, path: string): void {
  // convertMachineSpecToContractVersionedObjectReference: the infrastructure ref always, the
  // bootstrap config ref when set; an empty v1beta2 ref is omitted (omitzero).
  setOrDelete(
    spec,
    'infrastructureRef',
    nonEmpty(toContractRef(spec.infrastructureRef, `${path}.infrastructureRef`)),
  );
  const bootstrap = obj(spec, 'bootstrap');
  if (bootstrap && 'configRef' in bootstrap) {
    setOrDelete(
      bootstrap,
      'configRef',
      nonEmpty(toContractRef(bootstrap.configRef, `${path}.bootstrap.configRef`)),
    );
  }
  timeoutsUp(spec, spec, path);
}

/** MachineSpec, v1beta2 → v1beta1. */
function machineSpecDown(spec: JsonObject, ctx: ConversionContext, path: string): void {
  const infra = spec.infrastructureRef;
  // v1beta1's infrastructureRef is a required value (no omitempty): `{}` when v1beta2 has none.
  spec.infrastructureRef = isDefinedRef(infra)
    ? toObjectRef(infra, ctx.namespace, ctx.refApiVersionOf, `${path}.infrastructureRef`)
    : {};
  const bootstrap = obj(spec, 'bootstrap');
  if (bootstrap) {
    const ref = bootstrap.configRef;
    setOrDelete(
      bootstrap,
      'configRef',
      isDefinedRef(ref)
        ? toObjectRef(ref, ctx.namespace, ctx.refApiVersionOf, `${path}.bootstrap.configRef`)
        : undefined,
    );
  }
  timeoutsDown(spec, spec, path);
  // dropEmptyStringsMachineSpec: v1beta1 has pointers where v1beta2 has omitempty strings.
  for (const key of ['version', 'providerID', 'failureDomain'])
    if (spec[key] === '') Reflect.deleteProperty(spec, key);
}

const nonEmpty = (o: JsonObject | undefined): JsonObject | undefined =>
  o && !isEmptyObject(o) ? o : undefined;

/**
 * v1beta1 conditions (`status.conditions`, with severity) and the new ones
 * (`status.v1beta2.conditions`, metav1.Condition) trade places: legacy ones go to
 * `status.deprecated.v1beta1.conditions`, new ones to `status.conditions` (never converted into
 * each other: upstream's Convert_v1beta1_Condition_To_v1_Condition is a no-op).
 * `moved` are the other v1beta1 status fields that go to `deprecated.v1beta1` under the same name;
 * `always` says whether upstream creates `deprecated.v1beta1` even when there is nothing to move.
 */
function legacyStatusUp(
  status: JsonObject,
  moved: readonly string[],
  always: boolean,
): JsonObject | undefined {
  const v1beta2 = obj(status, 'v1beta2');
  const legacy = take(status, 'conditions');
  const values: [string, Json][] = [];
  for (const key of moved) {
    const v = take(status, key);
    if (v !== undefined) values.push([key, v]);
  }
  if (v1beta2 && 'conditions' in v1beta2) put(status, 'conditions', v1beta2.conditions);
  const anything =
    always ||
    legacy !== undefined ||
    values.some(([k]) => k === 'failureReason' || k === 'failureMessage');
  if (!anything) return undefined;
  const deprecated = ensure(ensure(status, 'deprecated'), 'v1beta1');
  put(deprecated, 'conditions', legacy);
  for (const [k, v] of values) deprecated[k] = v;
  return deprecated;
}

/** The reverse of {@link legacyStatusUp}: `deprecated.v1beta1` back to the top of status. */
function legacyStatusDown(status: JsonObject, moved: readonly string[]): Json | undefined {
  const fresh = take(status, 'conditions');
  const deprecated = obj(obj(status, 'deprecated'), 'v1beta1');
  delete status.deprecated;
  if (deprecated) {
    put(status, 'conditions', deprecated.conditions);
    for (const key of moved) put(status, key, deprecated[key]);
  }
  return fresh;
}

/** The v1beta2 counters that v1beta1 keeps under `status.v1beta2`. */
const NEW_COUNTERS = ['readyReplicas', 'availableReplicas', 'upToDateReplicas'] as const;

/** MD, MS, KCP status up: the new counters come out of `status.v1beta2`; the old ones are moved. */
export function countersStatusUp(status: JsonObject, moved: readonly string[]): void {
  const v1beta2 = obj(status, 'v1beta2');
  // The old counters (same names, old meaning) first go to deprecated; then the new ones take
  // their place: "Reset replica counters from autogenerated conversions".
  legacyStatusUp(status, moved, true);
  for (const key of NEW_COUNTERS) setOrDelete(status, key, v1beta2?.[key]);
  delete status.v1beta2;
}

/** MD, MS, KCP status down. */
export function countersStatusDown(status: JsonObject, moved: readonly string[]): void {
  const fresh: JsonObject = {};
  for (const key of NEW_COUNTERS) {
    const v = take(status, key);
    if (v !== undefined) fresh[key] = v;
  }
  const conditions = legacyStatusDown(status, moved);
  if (conditions !== undefined || Object.keys(fresh).length > 0) {
    const v1beta2: JsonObject = {};
    put(v1beta2, 'conditions', conditions);
    Object.assign(v1beta2, fresh);
    status.v1beta2 = v1beta2;
  }
}

/** Status of kinds whose v1beta2 block holds only conditions (Machine, MHC, KubeadmConfig…). */
function conditionsOnlyUp(status: JsonObject, moved: readonly string[], always: boolean): void {
  legacyStatusUp(status, moved, always);
  delete status.v1beta2;
}

function conditionsOnlyDown(status: JsonObject, moved: readonly string[]): void {
  const conditions = legacyStatusDown(status, moved);
  if (conditions !== undefined) status.v1beta2 = { conditions };
}

export { conditionsOnlyDown, conditionsOnlyUp };

const FAILURE = ['failureReason', 'failureMessage'] as const;

// --- MachineDeployment -------------------------------------------------------------------

const MD_MOVED = ['availableReplicas', 'unavailableReplicas', 'updatedReplicas', 'readyReplicas'];

const machineDeployment: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const strategy = obj(spec, 'strategy');
      delete spec.strategy;
      if (strategy) {
        const rollout = ensure(spec, 'rollout');
        const s = ensure(rollout, 'strategy');
        put(s, 'type', strategy.type);
        const rolling = obj(strategy, 'rollingUpdate');
        if (rolling) {
          const r: JsonObject = {};
          put(r, 'maxUnavailable', rolling.maxUnavailable);
          put(r, 'maxSurge', rolling.maxSurge);
          if (!isEmptyObject(r)) s.rollingUpdate = r;
          if (typeof rolling.deletePolicy === 'string' && rolling.deletePolicy !== '') {
            ensure(spec, 'deletion').order = rolling.deletePolicy;
          }
        }
        dropIfEmpty(rollout, 'strategy');
        const maxInFlight = obj(strategy, 'remediation')?.maxInFlight;
        if (maxInFlight !== undefined) ensure(spec, 'remediation').maxInFlight = maxInFlight;
        dropIfEmpty(spec, 'rollout');
      }
      const after = take(spec, 'rolloutAfter');
      if (typeof after === 'string' && after !== '') ensure(spec, 'rollout').after = after;
      machineNamingUp(spec);
      const minReady = take(spec, 'minReadySeconds');
      const tspec = obj(obj(spec, 'template'), 'spec');
      if (tspec) {
        machineSpecUp(tspec, 'spec.template.spec');
        put(tspec, 'minReadySeconds', minReady);
      } else if (minReady !== undefined) {
        ensure(ensure(spec, 'template'), 'spec').minReadySeconds = minReady;
      }
      setOrDelete(
        spec,
        'paused',
        boolIntent(spec.paused, ctx.restored !== undefined, restoredAt(ctx, ['spec', 'paused'])),
      );
    }
    const status = obj(o, 'status');
    if (status) countersStatusUp(status, MD_MOVED);
    else ensure(ensure(o, 'status'), 'deprecated').v1beta1 = {};
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const rollout = obj(spec, 'rollout');
      const deletion = obj(spec, 'deletion');
      const remediation = obj(spec, 'remediation');
      delete spec.rollout;
      delete spec.deletion;
      delete spec.remediation;
      const s = obj(rollout, 'strategy');
      let strategy: JsonObject | undefined;
      if (s && !isEmptyObject(s)) {
        strategy = {};
        put(strategy, 'type', s.type === '' ? undefined : s.type);
        const r = obj(s, 'rollingUpdate');
        if (r && !isEmptyObject(r)) {
          const rolling: JsonObject = {};
          put(rolling, 'maxUnavailable', r.maxUnavailable);
          put(rolling, 'maxSurge', r.maxSurge);
          strategy.rollingUpdate = rolling;
        }
      }
      if (typeof deletion?.order === 'string' && deletion.order !== '') {
        strategy ??= {};
        ensure(strategy, 'rollingUpdate').deletePolicy = deletion.order;
      }
      if (remediation?.maxInFlight !== undefined) {
        strategy ??= {};
        ensure(strategy, 'remediation').maxInFlight = remediation.maxInFlight;
      }
      put(spec, 'strategy', strategy);
      if (typeof rollout?.after === 'string' && rollout.after !== '')
        spec.rolloutAfter = rollout.after;
      machineNamingDown(spec);
      const tspec = obj(obj(spec, 'template'), 'spec');
      if (tspec) {
        put(spec, 'minReadySeconds', tspec.minReadySeconds);
        machineSpecDown(tspec, ctx, 'spec.template.spec');
      }
      // *bool → bool,omitempty.
      if (spec.paused !== true) delete spec.paused;
    }
    const status = obj(o, 'status');
    if (status) countersStatusDown(status, MD_MOVED);
  },
};

/**
 * `machineNamingStrategy` → `machineNaming`. v1beta2's MachineNamingSpec is a value struct
 * (`omitempty,omitzero`, `minProperties: 1` in its CRDs): a strategy without a template is its
 * zero value, which upstream's encoding leaves out.
 */
export function machineNamingUp(spec: JsonObject): void {
  const naming = obj(spec, 'machineNamingStrategy');
  delete spec.machineNamingStrategy;
  if (typeof naming?.template === 'string' && naming.template !== '') {
    spec.machineNaming = { template: naming.template };
  }
}

function machineNamingDown(spec: JsonObject): void {
  const naming = obj(spec, 'machineNaming');
  delete spec.machineNaming;
  if (typeof naming?.template === 'string' && naming.template !== '') {
    spec.machineNamingStrategy = { template: naming.template };
  }
}

// --- MachineSet --------------------------------------------------------------------------

const MS_MOVED = ['availableReplicas', 'fullyLabeledReplicas', 'readyReplicas', ...FAILURE];

const machineSet: KindConversion = {
  marshalsData: true,
  up(o) {
    const spec = obj(o, 'spec');
    if (spec) {
      const policy = take(spec, 'deletePolicy');
      if (typeof policy === 'string' && policy !== '') ensure(spec, 'deletion').order = policy;
      machineNamingUp(spec);
      const minReady = take(spec, 'minReadySeconds');
      const tspec = obj(obj(spec, 'template'), 'spec');
      if (tspec) machineSpecUp(tspec, 'spec.template.spec');
      // A v1beta1 0 is "not set" (int32,omitempty): nil in v1beta2.
      if (typeof minReady === 'number' && minReady !== 0) {
        ensure(ensure(spec, 'template'), 'spec').minReadySeconds = minReady;
      } else if (tspec) {
        delete tspec.minReadySeconds;
      }
    }
    const status = obj(o, 'status');
    if (status) countersStatusUp(status, MS_MOVED);
    else ensure(ensure(o, 'status'), 'deprecated').v1beta1 = {};
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const deletion = obj(spec, 'deletion');
      delete spec.deletion;
      if (typeof deletion?.order === 'string' && deletion.order !== '')
        spec.deletePolicy = deletion.order;
      machineNamingDown(spec);
      const tspec = obj(obj(spec, 'template'), 'spec');
      if (tspec) {
        const minReady = tspec.minReadySeconds;
        if (typeof minReady === 'number' && minReady !== 0) spec.minReadySeconds = minReady;
        machineSpecDown(tspec, ctx, 'spec.template.spec');
      }
    }
    const status = obj(o, 'status');
    if (status) countersStatusDown(status, MS_MOVED);
  },
};

// --- Machine -----------------------------------------------------------------------------

const machine: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const ok = ctx.restored !== undefined;
    const spec = obj(o, 'spec');
    if (spec) machineSpecUp(spec, 'spec');
    // v1beta1 Machines have no minReadySeconds: it lives only in the conversion data.
    if (ok) {
      const minReady = restoredAt(ctx, ['spec', 'minReadySeconds']);
      if (minReady !== undefined) ensure(o, 'spec').minReadySeconds = minReady;
    }
    const status = obj(o, 'status');
    if (!status) return;
    // A v1beta1 nodeRef is a whole ObjectReference; v1beta2 keeps its name (an empty one is omitted).
    const nodeRef = obj(status, 'nodeRef');
    setOrDelete(
      status,
      'nodeRef',
      typeof nodeRef?.name === 'string' && nodeRef.name !== '' ? { name: nodeRef.name } : undefined,
    );
    const bootstrapReady = take(status, 'bootstrapReady');
    const infraReady = take(status, 'infrastructureReady');
    const initialization: JsonObject = {};
    put(
      initialization,
      'bootstrapDataSecretCreated',
      boolIntent(
        bootstrapReady,
        ok,
        restoredAt(ctx, ['status', 'initialization', 'bootstrapDataSecretCreated']),
      ),
    );
    put(
      initialization,
      'infrastructureProvisioned',
      boolIntent(
        infraReady,
        ok,
        restoredAt(ctx, ['status', 'initialization', 'infrastructureProvisioned']),
      ),
    );
    if (!isEmptyObject(initialization)) status.initialization = initialization;
    conditionsOnlyUp(status, FAILURE, false);
    // "Restore the phase": only the Machine controller writes it, through v1beta2.
    if (ok) setOrDelete(status, 'phase', restoredAt(ctx, ['status', 'phase']));
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) machineSpecDown(spec, ctx, 'spec');
    const status = obj(o, 'status') ?? ensure(o, 'status');
    // v1beta1 had no Updating phase (in-place updates, v1.12).
    if (status.phase === 'Updating') status.phase = 'Running';
    const nodeRef = obj(status, 'nodeRef');
    setOrDelete(
      status,
      'nodeRef',
      typeof nodeRef?.name === 'string' && nodeRef.name !== ''
        ? { apiVersion: 'v1', kind: 'Node', name: nodeRef.name }
        : undefined,
    );
    const initialization = obj(status, 'initialization');
    delete status.initialization;
    conditionsOnlyDown(status, FAILURE);
    // v1beta1's bool fields without omitempty: always written.
    status.bootstrapReady = initialization?.bootstrapDataSecretCreated === true;
    status.infrastructureReady = initialization?.infrastructureProvisioned === true;
  },
};

// --- Cluster -----------------------------------------------------------------------------

const cluster: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const ok = ctx.restored !== undefined;
    const spec = obj(o, 'spec');
    if (spec) {
      for (const key of ['infrastructureRef', 'controlPlaneRef']) {
        if (key in spec) setOrDelete(spec, key, nonEmpty(toContractRef(spec[key], `spec.${key}`)));
      }
      setOrDelete(spec, 'paused', boolIntent(spec.paused, ok, restoredAt(ctx, ['spec', 'paused'])));
      const topology = obj(spec, 'topology');
      if (topology) topologyUp(topology);
    }
    const status = obj(o, 'status');
    if (!status) return;
    const v1beta2 = obj(status, 'v1beta2');
    // Whole blocks: v1.14's v1beta1 carries upgradePlan and versions under them too.
    setOrDelete(status, 'controlPlane', v1beta2?.controlPlane);
    setOrDelete(status, 'workers', v1beta2?.workers);
    const cpReady = take(status, 'controlPlaneReady');
    const infraReady = take(status, 'infrastructureReady');
    const initialization: JsonObject = {};
    put(
      initialization,
      'controlPlaneInitialized',
      boolIntent(
        cpReady,
        ok,
        restoredAt(ctx, ['status', 'initialization', 'controlPlaneInitialized']),
      ),
    );
    put(
      initialization,
      'infrastructureProvisioned',
      boolIntent(
        infraReady,
        ok,
        restoredAt(ctx, ['status', 'initialization', 'infrastructureProvisioned']),
      ),
    );
    if (!isEmptyObject(initialization)) status.initialization = initialization;
    const domains = obj(status, 'failureDomains');
    if (domains) {
      // A map becomes a list sorted by name (upstream sorts the map's keys).
      status.failureDomains = Object.keys(domains)
        .sort()
        .map((name) => {
          const fd = obj(domains, name) ?? {};
          const out: JsonObject = { name, controlPlane: fd.controlPlane === true };
          put(out, 'attributes', fd.attributes);
          return out;
        });
    }
    conditionsOnlyUp(status, FAILURE, false);
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      for (const key of ['infrastructureRef', 'controlPlaneRef']) {
        const ref = spec[key];
        setOrDelete(
          spec,
          key,
          isDefinedRef(ref)
            ? toObjectRef(ref, ctx.namespace, ctx.refApiVersionOf, `spec.${key}`)
            : undefined,
        );
      }
      const network = obj(spec, 'clusterNetwork');
      if (network?.apiServerPort === 0) delete network.apiServerPort;
      dropIfEmpty(spec, 'clusterNetwork');
      const topology = obj(spec, 'topology');
      if (topology) topologyDown(topology, ctx.namespace);
      dropIfEmpty(spec, 'topology');
      if (spec.paused !== true) delete spec.paused;
    }
    const status = obj(o, 'status') ?? ensure(o, 'status');
    const controlPlane = take(status, 'controlPlane');
    const workers = take(status, 'workers');
    const initialization = obj(status, 'initialization');
    delete status.initialization;
    const domains = take(status, 'failureDomains');
    if (Array.isArray(domains)) {
      const map: JsonObject = {};
      for (const fd of domains) {
        if (!isObject(fd) || typeof fd.name !== 'string') continue;
        const spec1: JsonObject = {};
        if (fd.controlPlane === true) spec1.controlPlane = true;
        put(spec1, 'attributes', fd.attributes);
        map[fd.name] = spec1;
      }
      status.failureDomains = map;
    }
    const conditions = legacyStatusDown(status, FAILURE);
    status.controlPlaneReady = initialization?.controlPlaneInitialized === true;
    status.infrastructureReady = initialization?.infrastructureProvisioned === true;
    if (conditions !== undefined || controlPlane !== undefined || workers !== undefined) {
      const v1beta2: JsonObject = {};
      put(v1beta2, 'conditions', conditions);
      put(v1beta2, 'controlPlane', controlPlane);
      put(v1beta2, 'workers', workers);
      status.v1beta2 = v1beta2;
    }
  },
};

// --- Cluster topology ----------------------------------------------------------------------

/**
 * A topology's `machineHealthCheck` (v1beta1 MachineHealthCheckTopology) ⇄ `healthCheck`
 * (v1beta2): `Convert_v1beta1_ControlPlaneTopology_To_v1beta2_ControlPlaneTopology` and its
 * MachineDeployment twin.
 */
function healthCheckUp(mhc: JsonObject | undefined, path: string): JsonObject | undefined {
  if (!mhc) return undefined;
  const out: JsonObject = {};
  put(out, 'enabled', mhc.enable);
  const checks: JsonObject = {};
  put(
    checks,
    'unhealthyNodeConditions',
    unhealthyUp(mhc.unhealthyConditions, `${path}.unhealthyConditions`),
  );
  put(
    checks,
    'unhealthyMachineConditions',
    unhealthyUp(mhc.unhealthyMachineConditions, `${path}.unhealthyMachineConditions`),
  );
  put(
    checks,
    'nodeStartupTimeoutSeconds',
    toSeconds(mhc.nodeStartupTimeout, `${path}.nodeStartupTimeout`),
  );
  if (!isEmptyObject(checks)) out.checks = checks;
  const triggerIf: JsonObject = {};
  put(triggerIf, 'unhealthyLessThanOrEqualTo', mhc.maxUnhealthy);
  if (typeof mhc.unhealthyRange === 'string' && mhc.unhealthyRange !== '') {
    triggerIf.unhealthyInRange = mhc.unhealthyRange;
  }
  const remediation: JsonObject = {};
  if (!isEmptyObject(triggerIf)) remediation.triggerIf = triggerIf;
  const template = obj(mhc, 'remediationTemplate');
  if (template) {
    const ref: JsonObject = {};
    put(ref, 'name', template.name);
    put(ref, 'kind', template.kind);
    put(ref, 'apiVersion', template.apiVersion);
    remediation.templateRef = ref;
  }
  if (!isEmptyObject(remediation)) out.remediation = remediation;
  return out;
}

/** `healthCheck` → `machineHealthCheck`, when it holds anything but `remediation.maxInFlight`. */
function healthCheckDown(
  hc: JsonObject | undefined,
  namespace: string,
  path: string,
): JsonObject | undefined {
  if (!hc) return undefined;
  const checks = obj(hc, 'checks');
  const remediation = obj(hc, 'remediation');
  const triggerIf = obj(remediation, 'triggerIf');
  const templateRef = obj(remediation, 'templateRef');
  const onlyMaxInFlight =
    hc.enabled === undefined &&
    (!checks || isEmptyObject(checks)) &&
    (!triggerIf || isEmptyObject(triggerIf)) &&
    (!templateRef || isEmptyObject(templateRef));
  if (onlyMaxInFlight) return undefined;
  const out: JsonObject = {};
  put(out, 'enable', hc.enabled);
  put(
    out,
    'unhealthyConditions',
    unhealthyDown(checks?.unhealthyNodeConditions, `${path}.checks.unhealthyNodeConditions`),
  );
  put(
    out,
    'unhealthyMachineConditions',
    unhealthyDown(checks?.unhealthyMachineConditions, `${path}.checks.unhealthyMachineConditions`),
  );
  put(
    out,
    'nodeStartupTimeout',
    fromSeconds(checks?.nodeStartupTimeoutSeconds, `${path}.checks.nodeStartupTimeoutSeconds`),
  );
  put(out, 'maxUnhealthy', triggerIf?.unhealthyLessThanOrEqualTo);
  if (typeof triggerIf?.unhealthyInRange === 'string' && triggerIf.unhealthyInRange !== '') {
    out.unhealthyRange = triggerIf.unhealthyInRange;
  }
  if (templateRef && !isEmptyObject(templateRef)) {
    const ref: JsonObject = {};
    put(ref, 'apiVersion', templateRef.apiVersion);
    put(ref, 'kind', templateRef.kind);
    put(ref, 'name', templateRef.name);
    if (namespace !== '') ref.namespace = namespace;
    out.remediationTemplate = ref;
  }
  return out;
}

function topologyUp(t: JsonObject): void {
  const classRef: JsonObject = {};
  put(classRef, 'name', take(t, 'class'));
  put(classRef, 'namespace', take(t, 'classNamespace'));
  if (!isEmptyObject(classRef)) t.classRef = classRef;
  const cp = obj(t, 'controlPlane');
  if (cp) {
    timeoutsUp(cp, cp, 'spec.topology.controlPlane');
    setOrDelete(
      cp,
      'healthCheck',
      healthCheckUp(obj(cp, 'machineHealthCheck'), 'spec.topology.controlPlane.machineHealthCheck'),
    );
    delete cp.machineHealthCheck;
  }
  const workers = obj(t, 'workers');
  const mds = workers?.machineDeployments;
  if (Array.isArray(mds)) {
    mds.forEach((md, i) => {
      if (!isObject(md)) return;
      const path = `spec.topology.workers.machineDeployments[${String(i)}]`;
      const strategy = obj(md, 'strategy');
      delete md.strategy;
      timeoutsUp(md, md, path);
      const hc = healthCheckUp(obj(md, 'machineHealthCheck'), `${path}.machineHealthCheck`) ?? {};
      delete md.machineHealthCheck;
      if (strategy) {
        const s: JsonObject = {};
        put(s, 'type', strategy.type);
        const rolling = obj(strategy, 'rollingUpdate');
        if (rolling) {
          const r: JsonObject = {};
          put(r, 'maxUnavailable', rolling.maxUnavailable);
          put(r, 'maxSurge', rolling.maxSurge);
          if (!isEmptyObject(r)) s.rollingUpdate = r;
          if (typeof rolling.deletePolicy === 'string' && rolling.deletePolicy !== '') {
            ensure(md, 'deletion').order = rolling.deletePolicy;
          }
        }
        if (!isEmptyObject(s)) md.rollout = { strategy: s };
        const maxInFlight = obj(strategy, 'remediation')?.maxInFlight;
        if (maxInFlight !== undefined) ensure(hc, 'remediation').maxInFlight = maxInFlight;
      }
      if (!isEmptyObject(hc)) md.healthCheck = hc;
    });
  }
  const mps = workers?.machinePools;
  if (Array.isArray(mps)) {
    mps.forEach((mp, i) => {
      if (isObject(mp)) timeoutsUp(mp, mp, `spec.topology.workers.machinePools[${String(i)}]`);
    });
  }
}

function topologyDown(t: JsonObject, namespace: string): void {
  const classRef = obj(t, 'classRef');
  delete t.classRef;
  put(t, 'class', classRef?.name);
  put(t, 'classNamespace', classRef?.namespace);
  const cp = obj(t, 'controlPlane');
  if (cp) {
    timeoutsDown(cp, cp, 'spec.topology.controlPlane');
    setOrDelete(
      cp,
      'machineHealthCheck',
      healthCheckDown(obj(cp, 'healthCheck'), namespace, 'spec.topology.controlPlane.healthCheck'),
    );
    delete cp.healthCheck;
  }
  const workers = obj(t, 'workers');
  const mds = workers?.machineDeployments;
  if (Array.isArray(mds)) {
    mds.forEach((md, i) => {
      if (!isObject(md)) return;
      const path = `spec.topology.workers.machineDeployments[${String(i)}]`;
      const order = obj(md, 'deletion')?.order;
      const deletion = obj(md, 'deletion');
      if (deletion) delete deletion.order;
      timeoutsDown(md, md, path);
      const rollout = obj(md, 'rollout');
      delete md.rollout;
      const hc = obj(md, 'healthCheck');
      delete md.healthCheck;
      let strategy: JsonObject | undefined;
      const s = obj(rollout, 'strategy');
      if (s && !isEmptyObject(s)) {
        strategy = {};
        if (typeof s.type === 'string' && s.type !== '') strategy.type = s.type;
        const r = obj(s, 'rollingUpdate');
        if (r && !isEmptyObject(r)) {
          const rolling: JsonObject = {};
          put(rolling, 'maxUnavailable', r.maxUnavailable);
          put(rolling, 'maxSurge', r.maxSurge);
          strategy.rollingUpdate = rolling;
        }
      }
      if (typeof order === 'string' && order !== '') {
        strategy ??= {};
        ensure(strategy, 'rollingUpdate').deletePolicy = order;
      }
      const maxInFlight = obj(hc, 'remediation')?.maxInFlight;
      if (maxInFlight !== undefined) {
        strategy ??= {};
        ensure(strategy, 'remediation').maxInFlight = maxInFlight;
      }
      put(md, 'strategy', strategy);
      put(md, 'machineHealthCheck', healthCheckDown(hc, namespace, `${path}.healthCheck`));
      if (md.failureDomain === '') delete md.failureDomain;
    });
  }
  const mps = workers?.machinePools;
  if (Array.isArray(mps)) {
    mps.forEach((mp, i) => {
      if (isObject(mp)) timeoutsDown(mp, mp, `spec.topology.workers.machinePools[${String(i)}]`);
    });
  }
}

// --- MachineHealthCheck ------------------------------------------------------------------

function unhealthyUp(list: Json | undefined, path: string): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((c, i) => {
    const item = isObject(c) ? c : {};
    const out: JsonObject = {};
    put(out, 'type', item.type);
    put(out, 'status', item.status);
    // Timeout is a metav1.Duration value (not a pointer): absent is 0s, so 0 seconds.
    out.timeoutSeconds = toSeconds(item.timeout ?? '0s', `${path}[${String(i)}].timeout`) ?? 0;
    return out;
  });
}

function unhealthyDown(list: Json | undefined, path: string): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((c, i) => {
    const item = isObject(c) ? c : {};
    const out: JsonObject = {};
    put(out, 'type', item.type);
    put(out, 'status', item.status);
    out.timeout = fromSeconds(item.timeoutSeconds, `${path}[${String(i)}].timeoutSeconds`) ?? '0s';
    return out;
  });
}

const MHC_COUNTERS = ['expectedMachines', 'currentHealthy', 'remediationsAllowed'] as const;

const machineHealthCheck: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const checks: JsonObject = {};
      put(
        checks,
        'nodeStartupTimeoutSeconds',
        toSeconds(take(spec, 'nodeStartupTimeout'), 'spec.nodeStartupTimeout'),
      );
      put(
        checks,
        'unhealthyNodeConditions',
        unhealthyUp(take(spec, 'unhealthyConditions'), 'spec.unhealthyConditions'),
      );
      put(
        checks,
        'unhealthyMachineConditions',
        unhealthyUp(take(spec, 'unhealthyMachineConditions'), 'spec.unhealthyMachineConditions'),
      );
      if (!isEmptyObject(checks)) spec.checks = checks;
      const triggerIf: JsonObject = {};
      put(triggerIf, 'unhealthyLessThanOrEqualTo', take(spec, 'maxUnhealthy'));
      const range = take(spec, 'unhealthyRange');
      if (typeof range === 'string' && range !== '') triggerIf.unhealthyInRange = range;
      const remediation: JsonObject = {};
      if (!isEmptyObject(triggerIf)) remediation.triggerIf = triggerIf;
      const template = obj(spec, 'remediationTemplate');
      delete spec.remediationTemplate;
      if (template) {
        const ref: JsonObject = {};
        put(ref, 'name', template.name);
        put(ref, 'kind', template.kind);
        put(ref, 'apiVersion', template.apiVersion);
        remediation.templateRef = ref;
      }
      if (!isEmptyObject(remediation)) spec.remediation = remediation;
    }
    const status = obj(o, 'status');
    if (!status) return;
    const ok = ctx.restored !== undefined;
    for (const key of MHC_COUNTERS) {
      setOrDelete(status, key, int32Intent(status[key], ok, restoredAt(ctx, ['status', key])));
    }
    conditionsOnlyUp(status, [], false);
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const checks = obj(spec, 'checks');
      const remediation = obj(spec, 'remediation');
      delete spec.checks;
      delete spec.remediation;
      put(
        spec,
        'unhealthyConditions',
        unhealthyDown(checks?.unhealthyNodeConditions, 'spec.checks.unhealthyNodeConditions'),
      );
      put(
        spec,
        'unhealthyMachineConditions',
        unhealthyDown(checks?.unhealthyMachineConditions, 'spec.checks.unhealthyMachineConditions'),
      );
      put(
        spec,
        'nodeStartupTimeout',
        fromSeconds(checks?.nodeStartupTimeoutSeconds, 'spec.checks.nodeStartupTimeoutSeconds'),
      );
      const triggerIf = obj(remediation, 'triggerIf');
      put(spec, 'maxUnhealthy', triggerIf?.unhealthyLessThanOrEqualTo);
      if (typeof triggerIf?.unhealthyInRange === 'string' && triggerIf.unhealthyInRange !== '') {
        spec.unhealthyRange = triggerIf.unhealthyInRange;
      }
      const templateRef = obj(remediation, 'templateRef');
      if (templateRef && !isEmptyObject(templateRef)) {
        const ref: JsonObject = {};
        put(ref, 'apiVersion', templateRef.apiVersion);
        put(ref, 'kind', templateRef.kind);
        put(ref, 'name', templateRef.name);
        if (ctx.namespace !== '') ref.namespace = ctx.namespace;
        spec.remediationTemplate = ref;
      }
    }
    const status = obj(o, 'status');
    if (!status) return;
    // *int32 → int32,omitempty.
    for (const key of MHC_COUNTERS) if (status[key] === 0) Reflect.deleteProperty(status, key);
    conditionsOnlyDown(status, []);
  },
};

// --- MachineDrainRule: the same fields in both versions ---------------------------------

const unchanged = (): void => undefined;

const machineDrainRule: KindConversion = {
  marshalsData: false,
  up: unchanged,
  down: unchanged,
};

export const CORE_CONVERSIONS: Readonly<Record<string, KindConversion>> = {
  Cluster: cluster,
  MachineDeployment: machineDeployment,
  MachineSet: machineSet,
  Machine: machine,
  MachineHealthCheck: machineHealthCheck,
  MachineDrainRule: machineDrainRule,
};
