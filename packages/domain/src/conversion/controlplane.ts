import { boolIntent, restoredAt } from './context';
import {
  countersStatusDown,
  countersStatusUp,
  machineNamingUp,
  timeoutsDown,
  timeoutsUp,
  type KindConversion,
} from './core';
import { parseGoDurationExact } from './duration';
import {
  ensure,
  fromSeconds,
  isEmptyObject,
  obj,
  put,
  take,
  toSeconds,
  type JsonObject,
} from './json';
import { kubeadmSpecDown, kubeadmSpecUp } from './kubeadm';
import { isDefinedRef, toContractRef, toObjectRef } from './refs';

/**
 * `controlplane.cluster.x-k8s.io` KubeadmControlPlane, as upstream's
 * `api/controlplane/kubeadm/v1beta1/conversion.go` converts it: `machineTemplate`'s
 * infrastructureRef, readinessGates, node timeouts and taints move under `machineTemplate.spec`
 * (refs and timeouts as for Machines); `rolloutAfter`, `rolloutBefore`, `rolloutStrategy` become
 * `rollout.after`, `.before`, `.strategy`; `remediationStrategy` becomes `remediation` with
 * seconds; `machineNamingStrategy` becomes `machineNaming`; the embedded KubeadmConfigSpec as
 * `kubeadm.ts` says; status as MachineDeployment's, with `initialized` ⇄
 * `initialization.controlPlaneInitialized`, `ready` rebuilt from the old ready counter, and
 * `lastRemediation.timestamp` ⇄ `.time`.
 */

const KCP_MOVED = [
  'updatedReplicas',
  'readyReplicas',
  'unavailableReplicas',
  'failureReason',
  'failureMessage',
];

export const kubeadmControlPlane: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const ok = ctx.restored !== undefined;
    const spec = obj(o, 'spec');
    if (spec) {
      const mt = obj(spec, 'machineTemplate');
      if (mt) {
        const mspec: JsonObject = {};
        // ConvertTo converts the infrastructure ref whether it is set or not.
        const infra = toContractRef(
          take(mt, 'infrastructureRef'),
          'spec.machineTemplate.infrastructureRef',
        );
        if (infra && !isEmptyObject(infra)) mspec.infrastructureRef = infra;
        put(mspec, 'readinessGates', take(mt, 'readinessGates'));
        put(mspec, 'taints', take(mt, 'taints'));
        timeoutsUp(mt, mspec, 'spec.machineTemplate');
        if (!isEmptyObject(mspec)) mt.spec = mspec;
      }
      const remediation = obj(spec, 'remediationStrategy');
      delete spec.remediationStrategy;
      if (remediation) {
        const r: JsonObject = {};
        put(r, 'maxRetry', remediation.maxRetry);
        put(
          r,
          'minHealthyPeriodSeconds',
          toSeconds(remediation.minHealthyPeriod, 'spec.remediationStrategy.minHealthyPeriod'),
        );
        // retryPeriod is a metav1.Duration value: Convert_Duration_To_Pointer_int32 keeps a 0
        // only when the conversion data says it was meant.
        const retry = remediation.retryPeriod ?? '0s';
        const seconds = toSeconds(retry, 'spec.remediationStrategy.retryPeriod') ?? 0;
        const restoredRetry = restoredAt(ctx, ['spec', 'remediation', 'retryPeriodSeconds']);
        if (!isZeroDuration(retry)) r.retryPeriodSeconds = seconds;
        else if (ok && restoredRetry === 0) r.retryPeriodSeconds = 0;
        if (!isEmptyObject(r)) spec.remediation = r;
      }
      const rollout: JsonObject = {};
      const days = obj(spec, 'rolloutBefore')?.certificatesExpiryDays;
      delete spec.rolloutBefore;
      if (days !== undefined && days !== null) rollout.before = { certificatesExpiryDays: days };
      const after = take(spec, 'rolloutAfter');
      if (typeof after === 'string' && after !== '') rollout.after = after;
      const strategy = obj(spec, 'rolloutStrategy');
      delete spec.rolloutStrategy;
      if (strategy) {
        const s: JsonObject = {};
        if (typeof strategy.type === 'string' && strategy.type !== '') s.type = strategy.type;
        const maxSurge = obj(strategy, 'rollingUpdate')?.maxSurge;
        if (maxSurge !== undefined && maxSurge !== null) s.rollingUpdate = { maxSurge };
        if (!isEmptyObject(s)) rollout.strategy = s;
      }
      if (!isEmptyObject(rollout)) spec.rollout = rollout;
      machineNamingUp(spec);
      const kcs = obj(spec, 'kubeadmConfigSpec');
      if (kcs) kubeadmSpecUp(kcs, ctx, ['spec', 'kubeadmConfigSpec'], 'spec.kubeadmConfigSpec');
    }
    const status = obj(o, 'status') ?? ensure(o, 'status');
    const last = obj(status, 'lastRemediation');
    if (last && 'timestamp' in last) put(last, 'time', take(last, 'timestamp'));
    const initialized = take(status, 'initialized');
    delete status.ready;
    countersStatusUp(status, KCP_MOVED);
    const cpInit = boolIntent(
      initialized,
      ok,
      restoredAt(ctx, ['status', 'initialization', 'controlPlaneInitialized']),
    );
    if (cpInit !== undefined) status.initialization = { controlPlaneInitialized: cpInit };
  },
  down(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) {
      const mt = obj(spec, 'machineTemplate');
      if (mt) {
        const mspec = obj(mt, 'spec');
        delete mt.spec;
        const infra = mspec?.infrastructureRef;
        // v1beta1's machineTemplate.infrastructureRef is a required value: `{}` when unset.
        mt.infrastructureRef = isDefinedRef(infra)
          ? toObjectRef(
              infra,
              ctx.namespace,
              ctx.refApiVersionOf,
              'spec.machineTemplate.spec.infrastructureRef',
            )
          : {};
        put(mt, 'readinessGates', mspec?.readinessGates);
        put(mt, 'taints', mspec?.taints);
        if (mspec) timeoutsDown(mspec, mt, 'spec.machineTemplate.spec');
      }
      const remediation = obj(spec, 'remediation');
      delete spec.remediation;
      if (remediation && !isEmptyObject(remediation)) {
        const r: JsonObject = {};
        put(r, 'maxRetry', remediation.maxRetry);
        put(
          r,
          'minHealthyPeriod',
          fromSeconds(
            remediation.minHealthyPeriodSeconds,
            'spec.remediation.minHealthyPeriodSeconds',
          ),
        );
        r.retryPeriod =
          fromSeconds(remediation.retryPeriodSeconds, 'spec.remediation.retryPeriodSeconds') ??
          '0s';
        spec.remediationStrategy = r;
      }
      const rollout = obj(spec, 'rollout');
      delete spec.rollout;
      const before = obj(rollout, 'before');
      if (before && !isEmptyObject(before)) {
        spec.rolloutBefore = { certificatesExpiryDays: before.certificatesExpiryDays ?? 0 };
      }
      if (typeof rollout?.after === 'string' && rollout.after !== '')
        spec.rolloutAfter = rollout.after;
      const s = obj(rollout, 'strategy');
      if (s && !isEmptyObject(s)) {
        const strategy: JsonObject = {};
        if (typeof s.type === 'string' && s.type !== '') strategy.type = s.type;
        const maxSurge = obj(s, 'rollingUpdate')?.maxSurge;
        if (maxSurge !== undefined && maxSurge !== null) strategy.rollingUpdate = { maxSurge };
        spec.rolloutStrategy = strategy;
      }
      const naming = obj(spec, 'machineNaming');
      delete spec.machineNaming;
      if (typeof naming?.template === 'string' && naming.template !== '') {
        spec.machineNamingStrategy = { template: naming.template };
      }
      const kcs = obj(spec, 'kubeadmConfigSpec');
      if (kcs) kubeadmSpecDown(kcs, 'spec.kubeadmConfigSpec');
    }
    const status = obj(o, 'status') ?? ensure(o, 'status');
    const last = obj(status, 'lastRemediation');
    if (last && 'time' in last) put(last, 'timestamp', take(last, 'time'));
    const initialization = obj(status, 'initialization');
    delete status.initialization;
    // availableReplicas is new in v1beta2's top level; v1beta1 keeps it under status.v1beta2.
    countersStatusDown(status, KCP_MOVED);
    status.initialized = initialization?.controlPlaneInitialized === true;
    status.ready = typeof status.readyReplicas === 'number' && status.readyReplicas > 0;
    if (status.version === '') delete status.version;
  },
};

/** Go's `in.Nanoseconds() == 0` (a refused string fails in `toSeconds` first). */
function isZeroDuration(text: unknown): boolean {
  return typeof text === 'string' && parseGoDurationExact(text) === 0n;
}

export const CONTROLPLANE_CONVERSIONS: Readonly<Record<string, KindConversion>> = {
  KubeadmControlPlane: kubeadmControlPlane,
};
