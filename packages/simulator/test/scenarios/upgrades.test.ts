import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_REVISION, LABEL_CONTROL_PLANE_NAME, LABEL_SET_NAME } from '@dcs/domain';
import { bootstrapTemplate, machineTemplate, type Obj } from '../../src/seed/objects';
import { RolloutMonitor } from '../support/monitor';
import {
  clusterUp,
  createPool,
  dcsMachineOf,
  machinesOf,
  must,
  waitSettled,
} from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'upg', { cpReplicas: 3 });
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const sets = (md: string) => [
  ...new Set(machinesOf(sim, md).map((m) => m.metadata.labels?.[LABEL_SET_NAME])),
];

async function rollWith(md: string, change: () => Promise<unknown>) {
  const monitor = new RolloutMonitor(sim.kubeconfig, () => sim.get('MachineDeployment', md), md);
  await monitor.synced();
  monitor.arm();
  const before = sets(md);
  await change();
  await sim.until(
    `${md} rolled`,
    () =>
      sets(md).length === 1 &&
      sets(md)[0] !== before[0] &&
      machinesOf(sim, md).every((m) => m.status?.phase === 'Running'),
    90_000,
  );
  await waitSettled(sim, md);
  await monitor.stop();
  return monitor;
}

describe('upgrades (O-UPGRADE-*), with the rolling-update invariants checked on every event', () => {
  it('O-UPGRADE-CP: version and machine template in one change; machines replaced one at a time', async () => {
    const kcpName = 'upg-control-plane';
    await sim.kubectl.create(
      machineTemplate({
        name: 'upg-control-plane-v1-35-0',
        version: 'v1.35.0',
        pool: 'upg-control-plane-pool',
        cpu: 8,
        memoryMB: 16384,
      }) as Obj,
    );
    const original = sim
      .list('Machine')
      .filter((m) => m.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] === kcpName)
      .map((m) => m.metadata.name);
    await sim.kubectl.patch('KubeadmControlPlane', kcpName, 'merge', {
      spec: {
        version: 'v1.35.0',
        machineTemplate: { infrastructureRef: { name: 'upg-control-plane-v1-35-0' } },
      },
    });
    let maxMachines = 0;
    let maxDeleting = 0;
    let sawRolling = false;
    await sim.until(
      'control plane upgraded',
      () => {
        const cps = sim
          .list('Machine')
          .filter((m) => m.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] === kcpName);
        maxMachines = Math.max(maxMachines, cps.length);
        maxDeleting = Math.max(maxDeleting, cps.filter((m) => m.metadata.deletionTimestamp).length);
        const kcp = sim.get('KubeadmControlPlane', kcpName);
        const upToDate = kcp?.status?.conditions?.find((c) => c.type === 'MachinesSpecUpToDate');
        if (upToDate?.status === 'False') {
          sawRolling = true;
          expect(upToDate).toMatchObject({
            reason: 'RollingUpdateInProgress',
            severity: 'Warning',
          });
        }
        return (
          cps.length === 3 &&
          cps.every(
            (m) =>
              m.spec?.version === 'v1.35.0' &&
              m.status?.phase === 'Running' &&
              !original.includes(m.metadata.name),
          ) &&
          kcp?.status?.version === 'v1.35.0' &&
          kcp.status.readyReplicas === 3 &&
          upToDate?.status === 'True'
        );
      },
      120_000,
    );
    expect(sawRolling).toBe(true);
    expect(maxMachines).toBeLessThanOrEqual(4);
    expect(maxDeleting).toBeLessThanOrEqual(1);
    const kcp = sim.get('KubeadmControlPlane', kcpName);
    expect(kcp?.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3 });
    expect(kcp?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    for (const m of sim
      .list('Machine')
      .filter((x) => x.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] === kcpName)) {
      expect(
        dcsMachineOf(sim, m)?.metadata.annotations?.['cluster.x-k8s.io/cloned-from-name'],
      ).toBe('upg-control-plane-v1-35-0');
      expect(m.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.35.0' });
    }
  }, 150_000);

  it('O-EDIT-CP-CONFIG: a change of the control plane’s kubeadmConfigSpec rolls its machines one at a time, as KCP does; each new KubeadmConfig carries it', async () => {
    const kcpName = 'upg-control-plane';
    const cpMachines = () =>
      sim.list('Machine').filter((m) => m.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] === kcpName);
    const original = cpMachines().map((m) => m.metadata.name);
    const files = must(sim.get('KubeadmControlPlane', kcpName), 'kcp').spec?.kubeadmConfigSpec
      ?.files;
    await sim.kubectl.patch('KubeadmControlPlane', kcpName, 'merge', {
      spec: {
        kubeadmConfigSpec: {
          files: [...(files ?? []), { path: '/etc/motd', content: 'edited by O-EDIT-CP-CONFIG' }],
        },
      },
    });
    let maxMachines = 0;
    let maxDeleting = 0;
    let sawOutdated = false;
    await sim.until(
      'control plane rolled to the new kubeadm config',
      () => {
        const cps = cpMachines();
        maxMachines = Math.max(maxMachines, cps.length);
        maxDeleting = Math.max(maxDeleting, cps.filter((m) => m.metadata.deletionTimestamp).length);
        const kcp = sim.get('KubeadmControlPlane', kcpName);
        const upToDate = kcp?.status?.conditions?.find((c) => c.type === 'MachinesSpecUpToDate');
        if (upToDate?.status === 'False') sawOutdated = true;
        return (
          cps.length === 3 &&
          cps.every((m) => m.status?.phase === 'Running' && !original.includes(m.metadata.name)) &&
          kcp?.status?.readyReplicas === 3 &&
          upToDate?.status === 'True'
        );
      },
      120_000,
    );
    expect(sawOutdated).toBe(true);
    expect(maxMachines).toBeLessThanOrEqual(4);
    expect(maxDeleting).toBeLessThanOrEqual(1);
    for (const m of cpMachines()) {
      expect(
        sim.get('KubeadmConfig', m.spec?.bootstrap.configRef?.name ?? '')?.spec?.files,
      ).toContainEqual({ path: '/etc/motd', content: 'edited by O-EDIT-CP-CONFIG' });
    }
    // Settled: nothing more is replaced once every machine carries the config.
    const settled = cpMachines().map((m) => m.metadata.name);
    await sim.clock.advance(10 * 60_000);
    await sim.controllers.idle();
    expect(cpMachines().map((m) => m.metadata.name)).toEqual(settled);
  }, 150_000);

  it('O-UPGRADE-INFRA with pool-managed persistent disks (R-MD-3, maxSurge 0): each volume moves from the old VM to its replacement', async () => {
    await createPool(sim, {
      name: 'upg-data',
      cluster: 'upg',
      version: 'v1.34.1',
      replicas: 3,
      maxSurge: 0,
      maxUnavailable: 1,
      persistent: true,
    });
    await waitSettled(sim, 'upg-data');
    const volumesBefore = new Map(
      (sim.get('DCSIpHostnamePool', 'upg-data-ippool')?.status?.persistentDiskStatus ?? []).map(
        (r) => [r.ip, r],
      ),
    );
    expect(volumesBefore.size).toBe(3);
    // Clone the machine template under a new name with more CPU and memory (R-TPL-4), then switch the reference.
    const tpl = must(sim.get('DCSMachineTemplate', 'upg-data-v1-34-1'), 'template');
    const bigger = structuredClone(tpl);
    bigger.metadata = { name: 'upg-data-v1-34-1-large', namespace: 'cpaas-system' };
    const vmConfig = bigger.spec?.template.spec.vmConfig;
    if (vmConfig) {
      vmConfig.dcsMachineCpuSpec = { quantity: 8 };
      vmConfig.dcsMachineMemorySpec = { quantity: 16384 };
    }
    const monitor = await rollWith('upg-data', async () => {
      await sim.kubectl.create(bigger as unknown as Obj);
      await sim.kubectl.patch('MachineDeployment', 'upg-data', 'merge', {
        spec: { template: { spec: { infrastructureRef: { name: 'upg-data-v1-34-1-large' } } } },
      });
    });
    expect(monitor.violations).toEqual([]);
    expect(monitor.maxMachines).toBeLessThanOrEqual(3);
    expect(monitor.minAvailable).toBe(2);
    const records =
      sim.get('DCSIpHostnamePool', 'upg-data-ippool')?.status?.persistentDiskStatus ?? [];
    const machines = machinesOf(sim, 'upg-data');
    for (const m of machines) {
      const ip = dcsMachineOf(sim, m)?.status?.networkConfig?.ip ?? '';
      const record = records.find((r) => r.ip === ip);
      // Same volume, now attached to the replacement.
      expect(record?.volumeName).toBe(volumesBefore.get(ip)?.volumeName);
      expect(record).toMatchObject({
        phase: 'Attached',
        machineName: m.metadata.name,
        mounted: true,
      });
      expect(dcsMachineOf(sim, m)?.spec?.vmConfig?.dcsMachineCpuSpec?.quantity).toBe(8);
    }
    const poolEvents = sim.events('upg-data-ippool', 'DCSIpHostnamePool').map((e) => e.reason);
    expect(poolEvents.filter((r) => r === 'PersistentDiskDetached').length).toBeGreaterThanOrEqual(
      3,
    );
    expect(poolEvents.filter((r) => r === 'PersistentDiskCreated')).toHaveLength(3);
    expect(
      sim.get('MachineDeployment', 'upg-data')?.metadata.annotations?.[ANNOTATION_REVISION],
    ).toBe('2');
  }, 150_000);

  it("R-DISK-6: a disk appended to a running VM's entry is attached on DCS but not mounted", async () => {
    const pool = sim.get('DCSIpHostnamePool', 'upg-data-ippool');
    const entries = structuredClone(pool?.spec?.pool ?? []);
    const first = entries[0];
    if (!first) throw new Error('no entry');
    first.persistentDisk = [
      ...(first.persistentDisk ?? []),
      {
        slot: 1,
        quantityGB: 20,
        datastoreClusterName: 'ds-cluster-1',
        path: '/data',
        format: 'xfs',
      },
    ];
    await sim.kubectl.patch('DCSIpHostnamePool', 'upg-data-ippool', 'merge', {
      spec: { pool: entries },
    });
    const record = await sim.until('appended disk attached', () =>
      sim
        .get('DCSIpHostnamePool', 'upg-data-ippool')
        ?.status?.persistentDiskStatus?.find((r) => r.ip === first.ip && r.slot === 1),
    );
    expect(record).toMatchObject({ phase: 'Attached', mounted: false });
    expect(record.message).toMatch(/R-DISK-6/);
    await sim.controllers.idle();
    expect(
      sim
        .events('upg-data-ippool', 'DCSIpHostnamePool')
        .some((e) => e.reason === 'PersistentDiskAttached' && e.message.includes('R-DISK-6')),
    ).toBe(true);
  }, 60_000);

  it('O-UPDATE-BOOTSTRAP, R-BOOT-3: editing the bootstrap template in place rolls nothing; switching to a clone rolls the pool', async () => {
    // Entries for replicas + maxSurge: with fewer, the surge machine would wait for an address (R-POOL-1).
    await createPool(sim, {
      name: 'upg-boot',
      cluster: 'upg',
      version: 'v1.34.1',
      replicas: 2,
      entries: 3,
      maxSurge: 1,
      maxUnavailable: 0,
    });
    await waitSettled(sim, 'upg-boot');
    const setBefore = sets('upg-boot');
    const kct = must(
      sim.get('KubeadmConfigTemplate', 'upg-boot-kct-v1-34-1'),
      'bootstrap template',
    );
    const spec = kct.spec?.template.spec ?? {};
    await sim.kubectl.patch('KubeadmConfigTemplate', 'upg-boot-kct-v1-34-1', 'merge', {
      spec: {
        template: {
          spec: {
            postKubeadmCommands: [...(spec.postKubeadmCommands ?? []), 'echo edited-in-place'],
          },
        },
      },
    });
    await sim.clock.advance(10 * 60_000);
    await sim.controllers.idle();
    expect(sets('upg-boot')).toEqual(setBefore);
    expect(
      sim.list('MachineSet').filter((s) => s.metadata.name?.startsWith('upg-boot')),
    ).toHaveLength(1);

    const clone = bootstrapTemplate({ name: 'upg-boot-kct-v1-34-1-b', version: 'v1.34.1' });
    const cloneSpec = clone.spec?.template.spec;
    if (cloneSpec)
      cloneSpec.postKubeadmCommands = [
        ...(cloneSpec.postKubeadmCommands ?? []),
        'echo from-the-clone',
      ];
    const monitor = await rollWith('upg-boot', async () => {
      await sim.kubectl.create(clone as Obj);
      await sim.kubectl.patch('MachineDeployment', 'upg-boot', 'merge', {
        spec: {
          template: { spec: { bootstrap: { configRef: { name: 'upg-boot-kct-v1-34-1-b' } } } },
        },
      });
    });
    expect(monitor.violations).toEqual([]);
    expect(monitor.maxMachines).toBeLessThanOrEqual(3);
    for (const m of machinesOf(sim, 'upg-boot')) {
      expect(
        sim.get('KubeadmConfig', m.spec?.bootstrap.configRef?.name ?? '')?.spec
          ?.postKubeadmCommands,
      ).toContain('echo from-the-clone');
    }
  }, 150_000);

  it('O-UPGRADE-K8S: machine template carrying 1.35, version and a 1.35 bootstrap template (R-BOOT-1) in one change', async () => {
    await createPool(sim, {
      name: 'upg-k8s',
      cluster: 'upg',
      version: 'v1.34.1',
      replicas: 3,
      entries: 5,
      maxSurge: '50%',
      maxUnavailable: 0,
    });
    await waitSettled(sim, 'upg-k8s');
    const monitor = await rollWith('upg-k8s', async () => {
      await sim.kubectl.create(
        machineTemplate({
          name: 'upg-k8s-v1-35-0',
          version: 'v1.35.0',
          pool: 'upg-k8s-ippool',
        }) as Obj,
      );
      await sim.kubectl.create(
        bootstrapTemplate({ name: 'upg-k8s-kct-v1-35-0', version: 'v1.35.0' }) as Obj,
      );
      await sim.kubectl.patch('MachineDeployment', 'upg-k8s', 'merge', {
        spec: {
          template: {
            spec: {
              version: 'v1.35.0',
              infrastructureRef: { name: 'upg-k8s-v1-35-0' },
              bootstrap: { configRef: { name: 'upg-k8s-kct-v1-35-0' } },
            },
          },
        },
      });
    });
    expect(monitor.violations).toEqual([]);
    expect(monitor.maxMachines).toBeLessThanOrEqual(5);
    expect(monitor.minAvailable).toBeGreaterThanOrEqual(3);
    for (const m of machinesOf(sim, 'upg-k8s')) {
      expect(m.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.35.0' });
      expect(dcsMachineOf(sim, m)?.spec?.vmTemplateName).toBe('alauda-os-k8s-v1.35.0');
      const files =
        sim.get('KubeadmConfig', m.spec?.bootstrap.configRef?.name ?? '')?.spec?.files ?? [];
      expect(
        files.some((f) =>
          f.content?.includes('"imagePullCredentialsVerificationPolicy": "NeverVerify"'),
        ),
      ).toBe(true);
    }
  }, 150_000);
});
