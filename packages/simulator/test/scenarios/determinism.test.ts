import { describe, expect, it } from 'vitest';
import { InformerFactory } from '@dcs/informer';
import {
  kindTable,
  type Machine,
  DCS_CONDITIONS,
  LABEL_APP_VERSION,
  LABEL_PROVIDER,
  PROVIDER_MIN_WEB_WORKFLOW,
  compareProviderVersions,
  providerVersionFrom,
} from '@dcs/domain';
import { clusterObjects, poolEntries, workerPoolObjects } from '../../src/seed/objects';
import { advanceUntil } from '../support/scenario';
import { startSim } from '../support/sim';

async function run(seed: number) {
  const sim = await startSim({ timeScale: 0, controllers: { randomSeed: seed } });
  // Phases are recorded from a watch, as `kubectl get machines -w` shows them: sampling the store
  // between clock steps misses a phase that lasts less than one step on a busy machine.
  const phases = new Set<string>();
  const watch = new InformerFactory(sim.kubeconfig);
  const machines = watch.informer<Machine>({
    group: kindTable.Machine.group,
    version: kindTable.Machine.version,
    plural: kindTable.Machine.plural,
  });
  const record = (m: Machine) => phases.add(m.status?.phase ?? 'Pending');
  machines.addEventHandler({ add: record, update: record });
  await machines.synced;
  try {
    await sim.create(
      ...clusterObjects({
        name: 'det',
        version: 'v1.34.1',
        endpoint: '10.8.0.10',
        replicas: 1,
        controlPlaneEntries: poolEntries({
          subnet: '10.8.0.',
          first: 11,
          count: 2,
          hostnamePrefix: 'det-cp',
        }),
      }),
      ...workerPoolObjects({
        name: 'det-md',
        cluster: 'det',
        version: 'v1.34.1',
        replicas: 3,
        entries: poolEntries({ subnet: '10.8.1.', first: 11, count: 3, hostnamePrefix: 'det-w' }),
      }),
    );
    await advanceUntil(sim, 'pool running', () => {
      return sim.get('MachineDeployment', 'det-md')?.status?.readyReplicas === 3;
    });
    const vmCreate = sim.list('DCSMachine').map((d) => {
      const t = d.status?.conditions?.find(
        (c) => c.type === DCS_CONDITIONS.vmProvisioned,
      )?.lastTransitionTime;
      const created = sim.events(d.metadata.name ?? '', 'DCSMachine');
      return {
        name: d.metadata.name ?? '',
        runningAt: t ? Date.parse(t) : 0,
        events: created.map((e) => e.reason),
      };
    });
    return {
      sets: sim
        .list('MachineSet')
        .map((s) => s.metadata.name ?? '')
        .sort(),
      machines: sim
        .list('Machine')
        .map((m) => m.metadata.name ?? '')
        .sort(),
      phases,
      vmCreate,
      sim,
    };
  } catch (e) {
    await sim.close();
    throw e;
  } finally {
    await watch.stop();
  }
}

describe('determinism: --random-seed and a test-driven clock', () => {
  it('the same seed gives the same names; another seed other names; time only moves when the test advances it', async () => {
    const a = await run(7);
    const b = await run(7);
    const c = await run(8);
    try {
      expect(a.sets).toEqual(b.sets);
      expect(a.machines).toEqual(b.machines);
      expect(c.machines).not.toEqual(a.machines);
      // Machines went through the phases of the lifecycle.
      expect([...a.phases]).toEqual(
        expect.arrayContaining(['Pending', 'Provisioning', 'Provisioned', 'Running']),
      );
    } finally {
      await Promise.all([a.sim.close(), b.sim.close(), c.sim.close()]);
    }
  }, 180_000);

  it('durations are realistic in simulated time: a VM takes 45–120 s to create, a machine minutes to run', async () => {
    const sim = await startSim({ timeScale: 0 });
    try {
      await sim.create(
        ...clusterObjects({
          name: 'dur',
          version: 'v1.34.1',
          endpoint: '10.8.0.10',
          replicas: 1,
          controlPlaneEntries: poolEntries({
            subnet: '10.8.0.',
            first: 11,
            count: 2,
            hostnamePrefix: 'dur-cp',
          }),
        }),
      );
      const started = sim.clock.now();
      // Timestamps are wall-clock time (see clock.ts): the simulated instants are observed here,
      // to the 5 s of an advance step.
      const trueAt = new Map<string, number>();
      await advanceUntil(
        sim,
        'control plane running',
        () => {
          for (const c of sim.list('DCSMachine')[0]?.status?.conditions ?? [])
            if (c.status === 'True' && !trueAt.has(c.type)) trueAt.set(c.type, sim.clock.now());
          return sim.list('Machine').some((m) => m.status?.phase === 'Running');
        },
        5_000,
      );
      const elapsed = (sim.clock.now() - started) / 1000;
      expect(elapsed).toBeGreaterThan(60);
      expect(elapsed).toBeLessThan(600);
      const iso = trueAt.get(DCS_CONDITIONS.bootstrapIsoUploaded) ?? NaN;
      const vm = trueAt.get(DCS_CONDITIONS.vmProvisioned) ?? NaN;
      expect((vm - iso) / 1000).toBeGreaterThanOrEqual(40);
      expect((vm - iso) / 1000).toBeLessThanOrEqual(140);
      // Without advancing, nothing moves: once what was under way has landed, the picture stays.
      const picture = () => JSON.stringify(sim.list('Machine').map((m) => m.status?.conditions));
      let before = '';
      for (let i = 0; i < 50 && before !== picture(); i++) {
        before = picture();
        await sim.controllers.idle();
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      await sim.controllers.idle();
      expect(picture()).toBe(before);
    } finally {
      await sim.close();
    }
  }, 120_000);
});

describe('the DCS provider Deployment (R-VER-1, R-VER-2)', () => {
  it('--provider-version sets the version label and the image tag, as clusterctl installs them', async () => {
    const sim = await startSim({ timeScale: 1000, controllers: { providerVersion: '1.0.12' } });
    try {
      const deployments = sim.api.list('apps/v1', 'Deployment', 'cpaas-system') as {
        metadata: { labels?: Record<string, string> };
        spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
      }[];
      const provider = deployments.find(
        (d) => d.metadata.labels?.[LABEL_PROVIDER] === 'infrastructure-dcs',
      );
      expect(provider?.metadata.labels?.[LABEL_APP_VERSION]).toBe('1.0.12');
      const image = provider?.spec?.template?.spec?.containers?.[0]?.image;
      expect(image).toMatch(/:v1\.0\.12$/);
      const version = providerVersionFrom(provider?.metadata.labels, image) ?? '';
      expect(compareProviderVersions(version, PROVIDER_MIN_WEB_WORKFLOW)).toBeLessThan(0);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
