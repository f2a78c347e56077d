import {
  LABEL_CLUSTER_NAME,
  type Cluster,
  LABEL_CONTROL_PLANE,
  LABEL_CONTROL_PLANE_NAME,
  kindTable,
  type KubeadmControlPlane,
  type Machine,
  type ObjectOf,
} from '@dcs/domain';
import { deleteCondition, setConditions } from '../logic/conditions';
import {
  REMEDIATION_FOR_ANNOTATION,
  REMEDIATION_IN_PROGRESS_ANNOTATION,
  lastRemediation,
  planRemediation,
  type OwnerRemediatedUpdate,
} from '../logic/kcp-remediation';
import { DRAIN_START_PATH } from '../logic/timeline';
import { OWNER_REMEDIATED, setV2Conditions, v1beta2Of } from '../logic/v1beta2';
import {
  ANNOTATION_CLONED_FROM_NAME,
  kcpNextAction,
  kcpStatus,
  kcpV2Status,
  machineComponentConditions,
  machineV2ComponentConditions,
  type KcpAction,
  type KcpMachine,
} from '../logic/kcp';
import {
  MACHINE_API_VERSION,
  MACHINE_FINALIZER,
  cloneFromTemplate,
  ownerRef,
  refTo,
} from '../logic/machine-desired';
import { generateName } from '../logic/names';
import { untilRolloutAfter } from '../logic/machineset-desired';
import { seeded } from '../logic/random';
import { selectorString } from '../logic/selectors';
import { BY_CLUSTER, BY_OWNER, indexKey } from '../runtime/caches';
import { isAlreadyExists } from '../runtime/client';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { ensurePausedCondition, pauseDrifted } from './paused';
import { errorMessage, keyFor, same } from './util';

/**
 * The kubeadm control-plane provider (KCP, v1.10): cluster certificates, control-plane machines
 * created one at a time, rolling upgrades one machine at a time (O-UPGRADE-CP), the health of
 * the control-plane components and etcd as conditions on the machines, KCP's status, and the
 * remediation of the machines a MachineHealthCheck marked (v1.14's reconcileUnhealthyMachines,
 * `logic/kcp-remediation.ts`): one at a time, tracked in the KCP's remediation-in-progress
 * annotation, carried by the replacement as remediation-for.
 */

const COMPONENT = 'kubeadm-control-plane-controller';
const CERT_PURPOSES = ['ca', 'etcd', 'proxy', 'sa'] as const;

export function kcpController(ctx: Context): Controller {
  const kcps = ctx.caches.get('KubeadmControlPlane');
  const machines = ctx.caches.get('Machine');
  const infras = ctx.caches.get('DCSMachine');
  const infraTemplates = ctx.caches.get('DCSMachineTemplate');
  const bootstrapConfigs = ctx.caches.get('KubeadmConfig');
  const certificatesDone = new Set<string>();
  const drawn = new Map<string, number>();

  async function ensureSecret(
    kcp: KubeadmControlPlane,
    name: string,
    data: Record<string, string>,
  ): Promise<void> {
    try {
      await ctx.client.create(kindTable.Secret, {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'cluster.x-k8s.io/secret',
        metadata: {
          name,
          namespace: kcp.metadata.namespace,
          labels: { [LABEL_CLUSTER_NAME]: kcp.metadata.labels?.[LABEL_CLUSTER_NAME] ?? '' },
          ownerReferences: [ownerRef(kcp, true)],
        },
        data: Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
        ),
      });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }

  /** The cluster CA, etcd CA, front-proxy CA and service-account key KCP generates once. */
  async function ensureCertificates(kcp: KubeadmControlPlane, cluster: string): Promise<void> {
    const key = `${kcp.metadata.namespace ?? ''}/${cluster}`;
    if (certificatesDone.has(key)) return;
    for (const purpose of CERT_PURPOSES) {
      await ensureSecret(kcp, `${cluster}-${purpose}`, {
        'tls.crt': `-----BEGIN CERTIFICATE-----\nsimulated ${purpose} certificate of ${cluster}\n-----END CERTIFICATE-----\n`,
        'tls.key': `-----BEGIN PRIVATE KEY-----\nsimulated\n-----END PRIVATE KEY-----\n`,
      });
    }
    certificatesDone.add(key);
  }

  async function createMachine(
    kcp: KubeadmControlPlane,
    cluster: string,
    init: boolean,
    key: string,
  ): Promise<void> {
    const ns = kcp.metadata.namespace ?? '';
    const spec = kcp.spec;
    if (!spec) return;
    const templateRef = spec.machineTemplate.infrastructureRef;
    const template = templateRef.name
      ? infraTemplates.get(templateRef.namespace ?? ns, templateRef.name)
      : undefined;
    if (!template) throw new Error(`DCSMachineTemplate ${templateRef.name ?? '(none)'} not found`);
    const remediationData = kcp.metadata.annotations?.[REMEDIATION_IN_PROGRESS_ANNOTATION];
    for (;;) {
      const n = drawn.get(key) ?? 0;
      drawn.set(key, n + 1);
      const { name } = generateName(
        `${kcp.metadata.name ?? ''}-`,
        seeded(ctx.options.randomSeed, 'kcp-machine', key, n),
      );
      const labels = {
        [LABEL_CLUSTER_NAME]: cluster,
        [LABEL_CONTROL_PLANE]: '',
        [LABEL_CONTROL_PLANE_NAME]: kcp.metadata.name ?? '',
      };
      const owner = ownerRef(kcp, false);
      const { initConfiguration, clusterConfiguration, joinConfiguration, ...common } =
        spec.kubeadmConfigSpec ?? {};
      try {
        const config = await ctx.writer.create('KubeadmConfig', {
          apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
          kind: 'KubeadmConfig',
          metadata: { name, namespace: ns, labels, ownerReferences: [owner] },
          spec: init
            ? {
                ...common,
                initConfiguration: initConfiguration ?? {},
                clusterConfiguration: clusterConfiguration ?? {},
              }
            : { ...common, joinConfiguration: { ...(joinConfiguration ?? {}), controlPlane: {} } },
        });
        const infra = await ctx.writer.create(
          'DCSMachine',
          cloneFromTemplate({
            template,
            name,
            namespace: ns,
            clusterName: cluster,
            labels,
            annotations: {},
            owner,
          }) as ObjectOf<'DCSMachine'>,
        );
        const machine: Machine = {
          apiVersion: MACHINE_API_VERSION,
          kind: 'Machine',
          metadata: {
            name,
            namespace: ns,
            labels,
            ownerReferences: [ownerRef(kcp, true)],
            finalizers: [MACHINE_FINALIZER],
            // Created to complete a remediation: the retry count goes with it.
            ...(remediationData !== undefined
              ? { annotations: { [REMEDIATION_FOR_ANNOTATION]: remediationData } }
              : {}),
          },
          spec: {
            clusterName: cluster,
            version: spec.version,
            bootstrap: { configRef: refTo(config) },
            infrastructureRef: refTo(infra),
            ...(spec.machineTemplate.nodeDrainTimeout
              ? { nodeDrainTimeout: spec.machineTemplate.nodeDrainTimeout }
              : {}),
            ...(spec.machineTemplate.nodeDeletionTimeout
              ? { nodeDeletionTimeout: spec.machineTemplate.nodeDeletionTimeout }
              : {}),
          },
        };
        await ctx.writer.create('Machine', machine);
        // The remediation completed when its replacement was created.
        if (remediationData !== undefined) await setRemediationAnnotation(kcp, undefined);
        return;
      } catch (e) {
        if (isAlreadyExists(e)) continue;
        throw e;
      }
    }
  }

  /**
   * The workload cluster's view of each control-plane machine: static pods and etcd member health
   * (v1beta1 and v1beta2), and whether the machine is up to date (v1beta2 UpToDate).
   */
  async function updateMachineHealth(
    kcp: KubeadmControlPlane,
    owned: readonly KcpMachine[],
    now: number,
  ): Promise<void> {
    const nowISO = ctx.clock.stamp();
    for (const view of owned) {
      const m = view.machine;
      if (!m.status) continue;
      const wanted = m.metadata.deletionTimestamp ? [] : machineComponentConditions(m);
      const conditions = wanted.length
        ? setConditions(m.status.conditions, wanted, nowISO)
        : m.status.conditions;
      const block = v1beta2Of(m.status) ?? {};
      const v2conditions = setV2Conditions(
        block.conditions,
        machineV2ComponentConditions(kcp, view, now),
        m.metadata.generation ?? 0,
        nowISO,
      );
      if (!same(conditions, m.status.conditions) || !same(v2conditions, block.conditions)) {
        await ctx.writer.updateStatus('Machine', {
          ...m,
          status: {
            ...m.status,
            ...(conditions ? { conditions } : {}),
            v1beta2: { ...block, conditions: v2conditions },
          },
        });
      }
    }
  }

  /** The KCP's remediation-in-progress annotation set (or removed), on the cached KCP. */
  async function setRemediationAnnotation(
    kcp: KubeadmControlPlane,
    value: string | undefined,
  ): Promise<KubeadmControlPlane> {
    const fresh = kcps.get(kcp.metadata.namespace, kcp.metadata.name ?? '') ?? kcp;
    const previous = fresh.metadata.annotations ?? {};
    if (previous[REMEDIATION_IN_PROGRESS_ANNOTATION] === value) return fresh;
    const annotations = Object.fromEntries(
      Object.entries(previous).filter(([k]) => k !== REMEDIATION_IN_PROGRESS_ANNOTATION),
    );
    if (value !== undefined) annotations[REMEDIATION_IN_PROGRESS_ANNOTATION] = value;
    return ctx.writer.update('KubeadmControlPlane', {
      ...fresh,
      metadata: { ...fresh.metadata, annotations },
    });
  }

  /** A machine's OwnerRemediated, both lists: set to `update`, or removed where `drop` says. */
  async function writeOwnerRemediated(
    m: Machine,
    change: { update: OwnerRemediatedUpdate } | { drop: { v1: boolean; v2: boolean } },
  ): Promise<void> {
    const s = m.status ?? {};
    const block = v1beta2Of(s) ?? {};
    const nowISO = ctx.clock.stamp();
    let v1 = s.conditions ?? [];
    let v2s = block.conditions ?? [];
    if ('update' in change) {
      v1 = setConditions(v1, [change.update.v1], nowISO);
      v2s = setV2Conditions(v2s, [change.update.v2], m.metadata.generation ?? 0, nowISO);
    } else {
      if (change.drop.v1) v1 = deleteCondition(v1, OWNER_REMEDIATED);
      if (change.drop.v2) v2s = v2s.filter((c) => c.type !== OWNER_REMEDIATED);
    }
    const next = { ...s, conditions: v1, v1beta2: { ...block, conditions: v2s } };
    if (!same(next, m.status)) await ctx.writer.updateStatus('Machine', { ...m, status: next });
  }

  /**
   * reconcileUnhealthyMachines. `stop`: a machine was deleted, nothing else this reconcile but
   * the status (upstream returns before scaling); `recheckMs`: when a deferral ends.
   */
  async function reconcileUnhealthyMachines(
    kcp: KubeadmControlPlane,
    owned: readonly Machine[],
    cluster: Cluster | undefined,
  ): Promise<{ kcp: KubeadmControlPlane; stop: boolean; recheckMs?: number }> {
    const topologyVersion = (cluster?.spec as { topology?: { version?: string } } | undefined)
      ?.topology?.version;
    const plan = planRemediation({
      kcp,
      machines: owned,
      initialized: Boolean(kcp.status?.initialized),
      now: ctx.clock.now(),
      nowISO: ctx.clock.stamp(),
      simAt: (iso) => {
        const wall = Date.parse(iso);
        return Number.isNaN(wall) ? undefined : ctx.clock.simAt(wall);
      },
      ...(topologyVersion !== undefined ? { topologyVersion } : {}),
    });
    const byName = (name: string) => owned.find((m) => m.metadata.name === name);
    for (const c of plan.clearOwnerRemediated) {
      const m = byName(c.name);
      if (m) await writeOwnerRemediated(m, { drop: c });
    }
    let current = kcp;
    if (plan.dropStaleAnnotation) current = await setRemediationAnnotation(current, undefined);
    const o = plan.outcome;
    if (o.type === 'error') throw new Error(o.message);
    if (o.type === 'none') return { kcp: current, stop: false };
    const target = byName(o.machine);
    if (!target) return { kcp: current, stop: false };
    await writeOwnerRemediated(target, { update: o.condition });
    if (o.type === 'blocked') {
      return {
        kcp: current,
        stop: false,
        ...(o.recheckMs !== undefined ? { recheckMs: o.recheckMs } : {}),
      };
    }
    const fresh = machines.get(target.metadata.namespace, target.metadata.name ?? '') ?? target;
    await ctx.writer.delete('Machine', fresh);
    current = await setRemediationAnnotation(current, o.annotation);
    return { kcp: current, stop: true };
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    let kcp = kcps.get(namespace, name);
    if (!kcp?.spec || kcp.metadata.deletionTimestamp) return undefined;
    const cluster =
      kcp.metadata.labels?.[LABEL_CLUSTER_NAME] ??
      kcp.metadata.ownerReferences?.find((r) => r.kind === 'Cluster')?.name;
    if (!cluster) return undefined; // waiting for the Cluster controller to set the owner and label
    const clusterObj = ctx.caches.get('Cluster').get(namespace, cluster);
    const pause = await ensurePausedCondition(ctx, 'KubeadmControlPlane', kcp, clusterObj);
    if (pause.stop) return pause.result;
    // rolloutAfter and creationTimestamp are wall-clock times.
    const now = ctx.clock.wallNow();
    await ensureCertificates(kcp, cluster);

    let owned = kcp.metadata.uid ? machines.byIndex(BY_OWNER, kcp.metadata.uid) : [];
    const view = (): KcpMachine[] =>
      owned.map((machine) => {
        const infra = infras.get(namespace, machine.spec?.infrastructureRef.name ?? '');
        const configRef = machine.spec?.bootstrap.configRef;
        const config =
          configRef?.kind === 'KubeadmConfig' && configRef.name
            ? bootstrapConfigs.get(namespace, configRef.name)
            : undefined;
        return {
          machine,
          infraTemplate: infra?.metadata.annotations?.[ANNOTATION_CLONED_FROM_NAME],
          bootstrapConfig: config?.spec,
        };
      });

    await updateMachineHealth(kcp, view(), now);
    owned = kcp.metadata.uid ? machines.byIndex(BY_OWNER, kcp.metadata.uid) : [];
    const remediation = await reconcileUnhealthyMachines(kcp, owned, clusterObj);
    kcp = remediation.kcp;
    owned = kcp.metadata.uid ? machines.byIndex(BY_OWNER, kcp.metadata.uid) : [];
    // A machine deleted for remediation: no scaling this reconcile (upstream returns early).
    const action: KcpAction = remediation.stop ? { type: 'none' } : kcpNextAction(kcp, view(), now);
    let requeueAfterMs: number | undefined = remediation.recheckMs;
    if (action.type === 'create') {
      try {
        await createMachine(kcp, cluster, action.init, key);
      } catch (e) {
        ctx.events.emit(
          kcp,
          'Warning',
          'FailedScaleUp',
          `Failed to create new control plane Machine for cluster ${namespace ?? ''}/${cluster} control plane: ${errorMessage(e)}`,
          COMPONENT,
        );
        throw e;
      }
    } else if (action.type === 'delete') {
      const victim = owned.find((m) => m.metadata.name === action.machine);
      if (victim) await ctx.writer.delete('Machine', victim);
    } else if (action.type === 'wait') {
      ctx.events.emit(kcp, 'Warning', 'ControlPlaneUnhealthy', action.message, COMPONENT);
      requeueAfterMs = Math.min(requeueAfterMs ?? action.requeueMs, action.requeueMs);
    }
    owned = kcp.metadata.uid ? machines.byIndex(BY_OWNER, kcp.metadata.uid) : [];
    // A replacement's creation removed the remediation annotation: the KCP as written.
    kcp = kcps.get(namespace, name) ?? kcp;
    const spec = kcp.spec;
    if (!spec) return undefined;

    // The workload cluster's kubeconfig exists once kubeadm init has run.
    const kubeconfigKey = `${namespace ?? ''}/${cluster}-kubeconfig`;
    if (!certificatesDone.has(kubeconfigKey) && owned.some((m) => m.status?.nodeRef)) {
      await ensureSecret(kcp, `${cluster}-kubeconfig`, {
        value: `apiVersion: v1\nkind: Config\nclusters: [{name: ${cluster}, cluster: {server: 'https://${cluster}.dcs.local:6443'}}]\n`,
      });
      certificatesDone.add(kubeconfigKey);
    }

    const status = kcpStatus({
      kcp,
      machines: view(),
      certificatesReady: certificatesDone.has(`${namespace ?? ''}/${cluster}`),
      selector: selectorString({
        [LABEL_CLUSTER_NAME]: cluster,
        [LABEL_CONTROL_PLANE]: '',
      }).replace(`${LABEL_CONTROL_PLANE}=`, LABEL_CONTROL_PLANE),
      now,
      nowISO: ctx.clock.stamp(),
    });
    const simNow = ctx.clock.now();
    status.v1beta2 = kcpV2Status({
      kcp,
      machines: owned,
      initialized: Boolean(status.initialized),
      certificatesReady: certificatesDone.has(`${namespace ?? ''}/${cluster}`),
      clusterPaused: Boolean(clusterObj?.spec?.paused),
      wallNow: now,
      deletingFor: (m) => {
        const at = ctx.timeline.at(
          m.metadata.uid,
          'metadata/deletionTimestamp',
          m.metadata.deletionTimestamp,
        );
        return at === undefined ? undefined : simNow - at;
      },
      drainingFor: (m) => {
        const at = ctx.timeline.at(
          m.metadata.uid,
          DRAIN_START_PATH,
          m.status?.deletion?.nodeDrainStartTime,
        );
        return at === undefined ? undefined : simNow - at;
      },
      nowISO: ctx.clock.stamp(),
    });
    const last = lastRemediation(kcp, owned);
    if (last) status.lastRemediation = last;
    if (!same(status, kcp.status))
      await ctx.writer.updateStatus('KubeadmControlPlane', { ...kcp, status });
    // A restart scheduled for later (rolloutAfter still to come): wake when it is due.
    const wake = untilRolloutAfter(spec.rolloutAfter, ctx.clock);
    if (wake !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? wake, wake);
    return remediation.stop || action.type === 'create' || action.type === 'delete'
      ? { requeue: true }
      : requeueAfterMs !== undefined
        ? { requeueAfterMs }
        : undefined;
  }

  return {
    name: 'kubeadmcontrolplane',
    primary: 'KubeadmControlPlane',
    watches: [
      watch('Machine', (m) => {
        const owner = m.metadata.ownerReferences?.find(
          (r) => r.controller && r.kind === 'KubeadmControlPlane',
        );
        return owner ? [`${m.metadata.namespace ?? ''}/${owner.name}`] : [];
      }),
      // ClusterPausedTransitions: the control planes whose Paused condition the cluster changes.
      watch('Cluster', (c) =>
        pauseDrifted(
          kcps.byIndex(BY_CLUSTER, indexKey(c.metadata.namespace, c.metadata.name ?? '')),
          c,
        ).map(keyFor),
      ),
    ],
    reconcile,
  };
}
