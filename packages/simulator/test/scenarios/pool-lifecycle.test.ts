import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DCS_CONDITIONS,
  DCS_REASONS,
  ANNOTATION_DELETE_MACHINE,
  LABEL_CLUSTER_NAME,
  LABEL_DEPLOYMENT_NAME,
  LABEL_MACHINE_TEMPLATE_HASH,
  LABEL_SET_NAME,
  type IpPoolEntry,
} from '@dcs/domain';
import { poolEntries } from '../../src/seed/objects';
import { clusterUp, createPool, dcsMachineOf, machinesOf, waitSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'life');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const names = (xs: { metadata: { name?: string | undefined } }[]) =>
  xs.map((x) => x.metadata.name ?? '').sort();

describe('node pool operations, done the way the reference documents do them', () => {
  it('O-CREATE-POOL: machines with their KubeadmConfig and DCSMachine, linked by owners, claiming distinct pool entries; U-7: nodes = replicas', async () => {
    await createPool(sim, {
      name: 'life-create',
      cluster: 'life',
      version: 'v1.34.1',
      replicas: 3,
      persistent: true,
      nics: true,
    });
    await waitSettled(sim, 'life-create');
    const md = sim.get('MachineDeployment', 'life-create');
    const sets = sim
      .list('MachineSet')
      .filter((s) => s.metadata.ownerReferences?.[0]?.uid === md?.metadata.uid);
    expect(sets).toHaveLength(1);
    const ms = sets[0];
    expect(ms?.metadata.name).toMatch(/^life-create-[a-z0-9]{5}$/);
    expect(ms?.metadata.labels?.[LABEL_MACHINE_TEMPLATE_HASH]).toMatch(/^\d+-[a-z0-9]{5}$/);
    expect(ms?.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision']).toBe('1');
    const machines = machinesOf(sim, 'life-create');
    const pool = sim.get('DCSIpHostnamePool', 'life-create-ippool');
    const entries = pool?.spec?.pool ?? [];
    for (const m of machines) {
      expect(m.metadata.labels).toMatchObject({
        [LABEL_CLUSTER_NAME]: 'life',
        [LABEL_DEPLOYMENT_NAME]: 'life-create',
        [LABEL_SET_NAME]: ms?.metadata.name,
        [LABEL_MACHINE_TEMPLATE_HASH]: ms?.metadata.labels?.[LABEL_MACHINE_TEMPLATE_HASH],
      });
      expect(m.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'MachineSet',
        name: ms?.metadata.name,
        controller: true,
      });
      const dm = dcsMachineOf(sim, m);
      const kc = sim.get('KubeadmConfig', m.spec?.bootstrap.configRef?.name ?? '');
      for (const o of [dm, kc]) {
        expect(o?.metadata.ownerReferences?.find((r) => r.controller)).toMatchObject({
          kind: 'Machine',
          name: m.metadata.name,
        });
        expect(o?.metadata.annotations?.['cluster.x-k8s.io/cloned-from-name']).toBeTruthy();
      }
      const entry = entries.find((e) => e.ip === dm?.status?.networkConfig?.ip);
      expect(entry).toBeDefined();
      expect(dm?.status).toMatchObject({ ready: true, vmState: 'running' });
      expect(dm?.status?.cdRomFile).toContain(entry?.machineName ?? '?');
      expect(dm?.status?.additionalNic).toEqual([
        expect.objectContaining({
          ip: entry?.additionNic?.[0]?.ip,
          portGroupName: 'pg-storage-vlan20',
        }),
      ]);
      expect(dm?.spec?.providerID).toBe(`dcs://${entry?.machineName ?? ''}`);
      expect(m.spec?.providerID).toBe(dm?.spec?.providerID);
      expect(m.status?.nodeRef?.name).toBe(entry?.hostname);
      expect(m.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.34.1' });
      expect(m.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(
        expect.arrayContaining([
          'Ready=True',
          'BootstrapReady=True',
          'InfrastructureReady=True',
          'NodeHealthy=True',
        ]),
      );
    }
    expect(new Set(machines.map((m) => dcsMachineOf(sim, m)?.status?.networkConfig?.ip)).size).toBe(
      3,
    );
    expect(pool?.status).toMatchObject({ total: 3, free: 0 });
    expect(pool?.status?.persistentDiskStatus).toHaveLength(3);
    expect(md?.status).toMatchObject({
      phase: 'Running',
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 0,
    });
    expect(sim.events('life-create', 'MachineDeployment').map((e) => e.reason)).toContain(
      'SuccessfulCreate',
    );
    expect(
      sim
        .events(ms?.metadata.name ?? '', 'MachineSet')
        .filter((e) => e.reason === 'SuccessfulCreate'),
    ).toHaveLength(3);
    expect(sim.events(machines[0]?.metadata.name ?? '', 'Machine').map((e) => e.reason)).toContain(
      'SuccessfulSetNodeRef',
    );
    expect(sim.events(machines[0]?.metadata.name ?? '', 'DCSMachine').map((e) => e.reason)).toEqual(
      expect.arrayContaining(['IPAddressClaimed', 'VMCreating', 'VMRunning']),
    );
  }, 90_000);

  it('O-SCALE-UP, R-POOL-1: a machine without a free entry waits and says so; extending the pool (full array, merge patch) lets it finish', async () => {
    await createPool(sim, {
      name: 'life-up',
      cluster: 'life',
      version: 'v1.34.1',
      replicas: 2,
      maxSurge: 1,
      maxUnavailable: 0,
    });
    await waitSettled(sim, 'life-up');
    await sim.kubectl.patch('MachineDeployment', 'life-up', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 3 },
    ]);
    const waiting = await sim.until('a machine waiting for an entry', () =>
      sim
        .list('DCSMachine')
        .find(
          (d) =>
            d.metadata.name?.startsWith('life-up') &&
            d.status?.conditions?.some(
              (c) =>
                c.type === DCS_CONDITIONS.ipHostnameClaimed &&
                c.reason === DCS_REASONS.noFreePoolEntry,
            ),
        ),
    );
    const claimed = waiting.status?.conditions?.find(
      (c) => c.type === DCS_CONDITIONS.ipHostnameClaimed,
    );
    expect(claimed).toMatchObject({ status: 'False', severity: 'Warning' });
    expect(claimed?.message).toMatch(
      /life-up-ippool has no free entry \(2 entries, 2 claimed\).*R-POOL-1/,
    );
    await sim.until('pool exhausted', () =>
      sim
        .get('DCSIpHostnamePool', 'life-up-ippool')
        ?.status?.conditions?.find(
          (c) => c.type === DCS_CONDITIONS.freeEntriesAvailable && c.status === 'False',
        ),
    );
    await sim.until('WaitingForIPAddress event', () =>
      sim
        .events(waiting.metadata.name ?? '', 'DCSMachine')
        .some((e) => e.reason === 'WaitingForIPAddress'),
    );
    expect(sim.get('Machine', waiting.metadata.name ?? '')?.status?.phase).not.toBe('Running');

    // As the document shows: read the pool, then send every existing entry plus the new one.
    const pool = sim.get('DCSIpHostnamePool', 'life-up-ippool');
    const existing: IpPoolEntry[] = pool?.spec?.pool ?? [];
    const subnet = (existing[0]?.ip ?? '').replace(/\d+$/, '');
    const added = poolEntries({
      subnet,
      first: 11 + existing.length,
      count: 1,
      hostnamePrefix: 'life-up-new',
    });
    await sim.kubectl.patch('DCSIpHostnamePool', 'life-up-ippool', 'merge', {
      spec: { pool: [...existing, ...added] },
    });
    await waitSettled(sim, 'life-up');
    expect(
      dcsMachineOf(
        sim,
        sim.get('Machine', waiting.metadata.name ?? '') ??
          machinesOf(sim, 'life-up')[0] ??
          ({} as never),
      )?.status?.networkConfig?.ip,
    ).toBe(added[0]?.ip);
    expect(sim.get('DCSIpHostnamePool', 'life-up-ippool')?.status).toMatchObject({
      total: 3,
      free: 0,
    });
  }, 90_000);

  it('O-SCALE-DOWN-RANDOM: lowering replicas drains, removes the VMs, releases the entries, removes the machines', async () => {
    await createPool(sim, {
      name: 'life-down',
      cluster: 'life',
      version: 'v1.34.1',
      replicas: 4,
      // The drains evict each Node's web replica and look again 20 s later (upstream's interval):
      // more than the default 1m leaves at this time scale (60 ms of real time) on a busy machine.
      nodeDrainTimeout: '10m',
    });
    await waitSettled(sim, 'life-down');
    const before = names(machinesOf(sim, 'life-down'));
    await sim.kubectl.patch('MachineDeployment', 'life-down', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ]);
    await waitSettled(sim, 'life-down');
    const after = names(machinesOf(sim, 'life-down'));
    const removed = before.filter((n) => !after.includes(n));
    // All healthy: Cluster API's "Random" policy deletes by name order.
    expect(removed).toEqual(before.slice(0, 2));
    for (const name of removed) {
      const reasons = sim.events(name, 'Machine').map((e) => e.reason);
      expect(reasons).toContain('SuccessfulDrainNode');
      expect(sim.events(name, 'DCSMachine').map((e) => e.reason)).toEqual(
        expect.arrayContaining(['VMDeleting', 'VMDeleted', 'IPAddressReleased']),
      );
      expect(sim.get('DCSMachine', name)).toBeUndefined();
      expect(sim.get('KubeadmConfig', name)).toBeUndefined();
    }
    expect(sim.get('DCSIpHostnamePool', 'life-down-ippool')?.status).toMatchObject({
      total: 4,
      free: 2,
    });
    const msName = machinesOf(sim, 'life-down')[0]?.metadata.labels?.[LABEL_SET_NAME] ?? '';
    expect(
      sim.events(msName, 'MachineSet').filter((e) => e.reason === 'SuccessfulDelete'),
    ).toHaveLength(2);
    expect(sim.events('life-down', 'MachineDeployment').map((e) => e.message)).toContain(
      `Scaled MachineSet cpaas-system/${msName}: 4 -> 2`,
    );
  }, 90_000);

  it('O-SCALE-DOWN-TARGETED, R-MD-6: exactly the annotated machines go; then R-POOL-6 removes their unclaimed entries', async () => {
    await createPool(sim, {
      name: 'life-target',
      cluster: 'life',
      version: 'v1.34.1',
      replicas: 4,
    });
    await waitSettled(sim, 'life-target');
    const machines = machinesOf(sim, 'life-target').sort((a, b) =>
      (a.metadata.name ?? '') < (b.metadata.name ?? '') ? 1 : -1,
    );
    const targets = machines.slice(0, 2); // the last two by name: Random alone would have spared them
    const ips = targets.map((m) => dcsMachineOf(sim, m)?.status?.networkConfig?.ip);
    for (const m of targets) {
      await sim.kubectl.patch('Machine', m.metadata.name ?? '', 'merge', {
        metadata: { annotations: { [ANNOTATION_DELETE_MACHINE]: 'true' } },
      });
    }
    await sim.kubectl.patch('MachineDeployment', 'life-target', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ]);
    await waitSettled(sim, 'life-target');
    expect(names(machinesOf(sim, 'life-target'))).toEqual(names(machines.slice(2)));
    const pool = sim.get('DCSIpHostnamePool', 'life-target-ippool');
    expect(pool?.status?.free).toBe(2);
    // IP reclamation: remove the two released entries (read-modify-write with the resourceVersion).
    const kept = (pool?.spec?.pool ?? []).filter((e) => !ips.includes(e.ip));
    await sim.kubectl.patch('DCSIpHostnamePool', 'life-target-ippool', 'json', [
      { op: 'test', path: '/metadata/resourceVersion', value: pool?.metadata.resourceVersion },
      { op: 'replace', path: '/spec/pool', value: kept },
    ]);
    await sim.until(
      'pool shrunk',
      () => sim.get('DCSIpHostnamePool', 'life-target-ippool')?.status?.total === 2,
    );
    expect(sim.get('DCSIpHostnamePool', 'life-target-ippool')?.status?.free).toBe(0);
  }, 90_000);

  it('R-MD-6: lowering replicas by fewer than annotated leaves annotated machines alive; by more deletes extra ones', async () => {
    await createPool(sim, { name: 'life-mix', cluster: 'life', version: 'v1.34.1', replicas: 5 });
    await waitSettled(sim, 'life-mix');
    const sorted = names(machinesOf(sim, 'life-mix'));
    const annotated = [sorted[3] ?? '', sorted[4] ?? ''];
    for (const n of annotated)
      await sim.kubectl.annotate('Machine', n, { [ANNOTATION_DELETE_MACHINE]: 'yes' });
    await sim.kubectl.patch('MachineDeployment', 'life-mix', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 4 },
    ]);
    await waitSettled(sim, 'life-mix');
    // Fewer: one annotated machine (the first by name) goes, the other stays.
    expect(names(machinesOf(sim, 'life-mix'))).toEqual(
      [...sorted.slice(0, 3), annotated[1]].sort(),
    );
    await sim.kubectl.patch('MachineDeployment', 'life-mix', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    await waitSettled(sim, 'life-mix');
    // More: the annotated one, then unannotated ones by name.
    expect(names(machinesOf(sim, 'life-mix'))).toEqual([sorted[2]]);
  }, 90_000);

  it('O-DELETE-POOL: deleting the MachineDeployment drains and removes its machines and frees its entries; then its templates and pool can go', async () => {
    await createPool(sim, {
      name: 'life-del',
      // As above: room for a drain's 20 s retries at this time scale.
      nodeDrainTimeout: '10m',
      cluster: 'life',
      version: 'v1.34.1',
      replicas: 2,
      persistent: true,
    });
    await waitSettled(sim, 'life-del');
    const machines = names(machinesOf(sim, 'life-del'));
    await sim.kubectl.delete('MachineDeployment', 'life-del');
    await sim.until(
      'machines gone',
      () =>
        machinesOf(sim, 'life-del').length === 0 &&
        sim.list('DCSMachine').every((d) => !machines.includes(d.metadata.name ?? '')),
    );
    for (const n of machines)
      expect(sim.events(n, 'Machine').map((e) => e.reason)).toContain('SuccessfulDrainNode');
    const pool = await sim.until('entries free', () => {
      const p = sim.get('DCSIpHostnamePool', 'life-del-ippool');
      return p?.status?.free === 2 ? p : undefined;
    });
    // The volumes stay on DCS, detached (R-POOL-6: the console deletes no DCS volume).
    expect(pool.status?.persistentDiskStatus?.every((r) => r.phase === 'Detached')).toBe(true);
    await sim.kubectl.delete('DCSMachineTemplate', 'life-del-v1-34-1');
    await sim.kubectl.delete('KubeadmConfigTemplate', 'life-del-kct-v1-34-1');
    await sim.kubectl.delete('DCSIpHostnamePool', 'life-del-ippool');
    await sim.until(
      'pool gone',
      () => sim.get('DCSIpHostnamePool', 'life-del-ippool') === undefined,
    );
  }, 90_000);
});
