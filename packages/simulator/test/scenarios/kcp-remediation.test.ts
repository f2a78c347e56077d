import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InformerFactory } from '@dcs/informer';
import {
  LABEL_CONTROL_PLANE_NAME,
  kindTable,
  type Condition,
  type KubeadmControlPlane,
  type Machine,
} from '@dcs/domain';
import type { CapiRelease } from '../../src/capi/releases';
import { ANNOTATION_FAIL } from '../../src/logic/failures';
import {
  REMEDIATION_FOR_ANNOTATION,
  REMEDIATION_IN_PROGRESS_ANNOTATION,
  parseRemediationData,
} from '../../src/logic/kcp-remediation';
import { v2ConditionsOf, type V2Condition } from '../../src/logic/v1beta2';
import { clusterUp } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * Issue 26 item 1: a MachineHealthCheck over a 3-replica control plane, on the embedded cluster
 * with the simulated controllers. One machine's Node goes unhealthy: KCP remediates it (deletes
 * it, records the remediation in its annotation, which the replacement takes over), and when the
 * replacement fails within the retry period it is deferred, then retried once the period ends,
 * and refused past maxRetry. Under both API generations: v1.10 (v1beta1 only) and v1.14
 * (v1beta2 stored, the deprecated v1beta1 still served).
 */

const CLUSTER = 'kcpr';
const KCP = `${CLUSTER}-control-plane`;

const v1 = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);
const v2of = (obj: { status?: unknown } | undefined, type: string): V2Condition | undefined =>
  obj ? v2ConditionsOf(obj)?.find((c) => c.type === type) : undefined;

/** Everything a watch on the KCP and its machines saw: annotations and conditions, in order. */
class Recorder {
  readonly annotations: (string | undefined)[] = [];
  readonly remediating: string[] = [];
  readonly owner = new Map<string, string[]>();
  private readonly factory: InformerFactory;

  constructor(sim: Sim) {
    this.factory = new InformerFactory(sim.kubeconfig);
    const k = kindTable.KubeadmControlPlane;
    const kcps = this.factory.informer<KubeadmControlPlane>({
      group: k.group,
      version: k.version,
      plural: k.plural,
      namespace: NS,
    });
    const onKcp = (o: KubeadmControlPlane) => {
      if (o.metadata.name !== KCP) return;
      const a = o.metadata.annotations?.[REMEDIATION_IN_PROGRESS_ANNOTATION];
      if (this.annotations.at(-1) !== a || this.annotations.length === 0) this.annotations.push(a);
      const r = v2of(o, 'Remediating');
      const text = r ? `${r.status}/${r.reason}` : '';
      if (this.remediating.at(-1) !== text) this.remediating.push(text);
    };
    kcps.addEventHandler({ add: onKcp, update: onKcp });
    const m = kindTable.Machine;
    const ms = this.factory.informer<Machine>({
      group: m.group,
      version: m.version,
      plural: m.plural,
      namespace: NS,
    });
    const onMachine = (o: Machine) => {
      const name = o.metadata.name ?? '';
      const a = v1(o.status?.conditions, 'OwnerRemediated');
      const b = v2of(o, 'OwnerRemediated');
      if (!a && !b) return;
      const text = `${a?.reason ?? '-'}|${b?.reason ?? '-'}|${b?.message ?? ''}`;
      const seen = this.owner.get(name) ?? [];
      if (seen.at(-1) !== text) seen.push(text);
      this.owner.set(name, seen);
    };
    ms.addEventHandler({ add: onMachine, update: onMachine });
  }

  synced(): Promise<void> {
    return this.factory.waitForSync();
  }

  stop(): Promise<void> {
    return this.factory.stop();
  }
}

const cpMachines = (sim: Sim) =>
  sim
    .list('Machine')
    .filter((m) => m.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] === KCP)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));

const running = (sim: Sim, n: number) => {
  const ms = cpMachines(sim);
  return (
    ms.length === n &&
    ms.every(
      (m) =>
        m.status?.phase === 'Running' &&
        !m.metadata.deletionTimestamp &&
        v1(m.status.conditions, 'NodeHealthy')?.status === 'True',
    )
  );
};

for (const release of ['v1.10', 'v1.14'] as const satisfies readonly CapiRelease[]) {
  describe(`KubeadmControlPlane remediation (--capi-release ${release})`, () => {
    let sim: Sim;
    let rec: Recorder;
    beforeAll(async () => {
      sim = await startSim({ timeScale: 1000, capiRelease: release });
      rec = new Recorder(sim);
      await rec.synced();
      await clusterUp(sim, CLUSTER, { cpReplicas: 3 });
      await sim.kubectl.patch('KubeadmControlPlane', KCP, 'merge', {
        // Simulated time runs 1000 times faster than the test's polling: periods of hours.
        spec: {
          remediationStrategy: { maxRetry: 1, retryPeriod: '100h', minHealthyPeriod: '1000h' },
        },
      });
      await sim.kubectl.create({
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineHealthCheck',
        metadata: { name: `${CLUSTER}-cp-mhc`, namespace: NS },
        spec: {
          clusterName: CLUSTER,
          selector: { matchLabels: { 'cluster.x-k8s.io/control-plane': '' } },
          unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '60s' }],
          nodeStartupTimeout: '100h',
        },
      });
      await sim.until('the health check sees three healthy control-plane machines', () => {
        const st = sim.get('MachineHealthCheck', `${CLUSTER}-cp-mhc`)?.status;
        return st?.expectedMachines === 3 && st.currentHealthy === 3;
      });
    }, 180_000);
    afterAll(async () => {
      await rec.stop();
      await sim.close();
    });

    it('the served KCP keeps spec.remediationStrategy (v1.14: stored as v1beta2 seconds, so in Go’s format)', () => {
      const kcp = sim.get('KubeadmControlPlane', KCP);
      expect((kcp?.spec as Record<string, unknown>).remediationStrategy).toEqual(
        release === 'v1.10'
          ? { maxRetry: 1, retryPeriod: '100h', minHealthyPeriod: '1000h' }
          : { maxRetry: 1, retryPeriod: '100h0m0s', minHealthyPeriod: '1000h0m0s' },
      );
    });

    it('an unhealthy Node: the machine is deleted (OwnerRemediated RemediationInProgress / MachineDeleting), the annotation written, taken over by the replacement and cleared; Remediating True then False', async () => {
      const before = cpMachines(sim).map((m) => m.metadata.name ?? '');
      const victim = before[1] ?? '';
      await sim.kubectl.annotate('Machine', victim, { [ANNOTATION_FAIL]: 'node-unhealthy' });
      await sim.until(
        'the victim replaced and the control plane whole again',
        () => !cpMachines(sim).some((m) => m.metadata.name === victim) && running(sim, 3),
        90_000,
      );
      await sim.controllers.idle();
      const kcp = sim.get('KubeadmControlPlane', KCP);
      // Written with the victim and retry count 0, then removed when the replacement was made.
      const written = rec.annotations.filter((a): a is string => a !== undefined);
      expect(written).toHaveLength(1);
      expect(parseRemediationData(written[0] ?? '')).toMatchObject({
        machine: victim,
        retryCount: 0,
      });
      expect(rec.annotations.at(-1)).toBeUndefined();
      expect(kcp?.metadata.annotations?.[REMEDIATION_IN_PROGRESS_ANNOTATION]).toBeUndefined();
      const replacement = cpMachines(sim).find((m) => !before.includes(m.metadata.name ?? ''));
      expect(replacement?.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION]).toBe(written[0]);
      expect(rec.owner.get(victim)).toEqual([
        'WaitingForRemediation|WaitingForRemediation|Waiting for remediation',
        'RemediationInProgress|MachineDeleting|Machine is deleting',
      ]);
      expect(rec.remediating).toContain('True/Remediating');
      // The watch that records it may deliver the KCP's last status write after the controllers
      // went idle.
      await sim.until(
        'Remediating False once the replacement is made',
        () => rec.remediating.at(-1) === 'False/NotRemediating',
        30_000,
      );
      expect(kcp?.status?.lastRemediation).toMatchObject({ machine: victim, retryCount: 0 });
    }, 120_000);

    it('the replacement failing within retryPeriod is deferred (RemediationDeferred); after it, retried with retryCount 1; past maxRetry refused (CannotBeRemediated)', async () => {
      const firstGen = cpMachines(sim).map((m) => m.metadata.name ?? '');
      const replacement = cpMachines(sim).find(
        (m) => m.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION] !== undefined,
      );
      const name = replacement?.metadata.name ?? '';
      await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: 'node-unhealthy' });
      const deferred = await sim.until('the replacement deferred', () => {
        const m = sim.get('Machine', name);
        const c = v2of(m, 'OwnerRemediated');
        return c?.reason === 'RemediationDeferred' ? { m, c } : undefined;
      });
      expect(deferred.c.message).toBe(
        "KubeadmControlPlane can't remediate this machine because the operation already failed in the latest 100h0m0s (RetryPeriodSeconds)",
      );
      expect(v1(deferred.m?.status?.conditions, 'OwnerRemediated')).toMatchObject({
        status: 'False',
        reason: 'WaitingForRemediation',
        severity: 'Warning',
        message: deferred.c.message,
      });
      expect(deferred.m?.metadata.deletionTimestamp).toBeUndefined();
      // The KCP's status is written in the same reconcile, after the machine's.
      const remediating = await sim.until('the KCP reports the deferral', () => {
        const c = v2of(sim.get('KubeadmControlPlane', KCP), 'Remediating');
        return c?.message.includes(deferred.c.message) ? c : undefined;
      });
      expect(remediating).toMatchObject({
        status: 'True',
        reason: 'Remediating',
        message: `* Machine ${name}: ${deferred.c.message}`,
      });

      // Still deferred a while later; then the retry period shortened (a KCP change is
      // reconciled at once): remediated again, the count carried (1) to its replacement.
      await new Promise((r) => setTimeout(r, 500));
      await sim.controllers.idle();
      expect(sim.get('Machine', name)?.metadata.deletionTimestamp).toBeUndefined();
      await sim.kubectl.patch('KubeadmControlPlane', KCP, 'merge', {
        spec: { remediationStrategy: { retryPeriod: '1s' } },
      });
      await sim.until(
        'the replacement remediated and replaced in turn',
        () => !cpMachines(sim).some((m) => m.metadata.name === name) && running(sim, 3),
        90_000,
      );
      await sim.controllers.idle();
      const second = cpMachines(sim).find((m) => !firstGen.includes(m.metadata.name ?? ''));
      const data = parseRemediationData(
        second?.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION] ?? '',
      );
      expect(data).toMatchObject({ machine: name, retryCount: 1 });

      // maxRetry 1 reached: the next failure of the same lineage is refused.
      const third = second?.metadata.name ?? '';
      await sim.kubectl.annotate('Machine', third, { [ANNOTATION_FAIL]: 'node-unhealthy' });
      const refused = await sim.until('refused past maxRetry', () => {
        const c = v2of(sim.get('Machine', third), 'OwnerRemediated');
        return c?.reason === 'CannotBeRemediated' ? c : undefined;
      });
      expect(refused.message).toBe(
        "KubeadmControlPlane can't remediate this machine because the operation already failed 1 times (MaxRetry)",
      );
    }, 180_000);
  });
}
