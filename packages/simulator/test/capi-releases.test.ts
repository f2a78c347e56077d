import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { capiVersionsOf, type CapiRelease } from '../src/capi/releases';
import { startControllers, type RunningControllers } from '../src/controllers/start';
import { startEmbeddedCluster, type EmbeddedCluster } from '../src/embedded';
import { createClock } from '../src/logic/clock';
import { seed } from '../src/seed';
import { seedClientInProcess } from '../src/seed/clients';

/**
 * Issue 23: the embedded cluster stands for a Cluster API release. v1.14 stores v1beta2 and
 * serves v1beta1 deprecated (kubectl prints the server's warning); v1.16 serves v1beta2 only. On
 * both, the demo is seeded and the controllers, speaking v1beta2 as upstream's of those releases
 * do, bring every machine up.
 */

const exec = promisify(execFile);
const WAIT_MS = 120_000;

interface Running {
  cluster: EmbeddedCluster;
  controllers: RunningControllers;
  kubeconfigPath: string;
  dir: string;
}

const running: Running[] = [];
afterAll(async () => {
  for (const r of running) {
    await r.controllers.stop();
    await r.cluster.close();
    await rm(r.dir, { recursive: true, force: true });
  }
});

const controllersOn = (cluster: EmbeddedCluster): Promise<RunningControllers> => {
  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromString(cluster.kubeconfig);
  return startControllers({
    kubeconfig,
    clock: createClock({ timeScale: 1000 }),
    options: { log: () => undefined, workloadClusters: false },
  });
};

/** As `clusterctl upgrade` does: the controllers of the new release replace the old ones. */
async function restartControllers(r: Running): Promise<void> {
  await r.controllers.stop();
  r.controllers = await controllersOn(r.cluster);
}

async function start(release: CapiRelease): Promise<Running> {
  const cluster = await startEmbeddedCluster({ capiRelease: release });
  const controllers = await controllersOn(cluster);
  const result = await seed(
    'demo',
    seedClientInProcess(cluster.server.client, () => cluster.capiVersions),
    {
      pollMs: 50,
    },
  );
  void result.background.catch(() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'capi-release-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, cluster.kubeconfig, { mode: 0o600 });
  const r = { cluster, controllers, kubeconfigPath, dir };
  running.push(r);
  return r;
}

async function demoMachinesRunning(r: Running): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const version = r.cluster.capiVersions['cluster.x-k8s.io'] ?? 'v1beta1';
    const machines = r.cluster.server.client.list(`cluster.x-k8s.io/${version}`, 'Machine');
    const running = machines.filter(
      (m) => (m as { status?: { phase?: string } }).status?.phase === 'Running',
    );
    // The demo keeps one machine stuck on purpose (a failure mode to troubleshoot). Early on the
    // seed has made only its first machine, which is not Running yet: 0 of 1 is no demo.
    if (running.length > 5 && running.length >= machines.length - 1) return running.length;
    if (Date.now() > deadline)
      throw new Error(`${String(running.length)} of ${String(machines.length)} machines Running`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

interface V2Status {
  phase?: string;
  conditions?: { type: string; status: string; reason: string; observedGeneration?: number }[];
  readyReplicas?: number;
  upToDateReplicas?: number;
  replicas?: number;
}

/** Every Running Machine reads, through v1beta2, with Ready and Available True; the pools count them. */
async function v1beta2StatusWritten(r: Running): Promise<void> {
  const read = (kind: string) =>
    r.cluster.server.client.list('cluster.x-k8s.io/v1beta2', kind) as {
      metadata: { name?: string; generation?: number };
      status?: V2Status;
    }[];
  const deadline = Date.now() + 30_000;
  for (;;) {
    const running = read('Machine').filter((m) => m.status?.phase === 'Running');
    const ok = running.every(
      (m) =>
        m.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' &&
        m.status.conditions.find((c) => c.type === 'Available')?.status === 'True' &&
        m.status.conditions.every(
          (c) => c.reason !== '' && c.observedGeneration === m.metadata.generation,
        ),
    );
    const pools = read('MachineDeployment').filter((d) => d.metadata.name === 'prod-east-legacy');
    if (
      ok &&
      running.length > 5 &&
      pools[0]?.status?.upToDateReplicas === pools[0]?.status?.replicas
    )
      return;
    if (Date.now() > deadline)
      throw new Error('the v1beta2 conditions of the Running machines are not all True');
    await new Promise((done) => setTimeout(done, 200));
  }
}

const kubectl = (r: Running, ...args: string[]) =>
  exec('kubectl', ['--kubeconfig', r.kubeconfigPath, ...args], { timeout: 30_000 });

describe('--capi-release (issue 23)', () => {
  it(
    'v1.14: v1beta2 stored, v1beta1 served deprecated with the warning; the demo comes up',
    async () => {
      const r = await start('v1.14');
      expect(r.cluster.capiRelease).toBe('v1.14');
      expect(await demoMachinesRunning(r)).toBeGreaterThan(5);
      await v1beta2StatusWritten(r);
      expect(r.cluster.server.storedVersions('cluster.x-k8s.io', 'machines')).toEqual([
        'cluster.x-k8s.io/v1beta2',
      ]);
      const old = await kubectl(r, 'get', 'machinedeployments.v1beta1.cluster.x-k8s.io', '-A');
      expect(old.stderr).toContain(
        'cluster.x-k8s.io/v1beta1 MachineDeployment is deprecated; use cluster.x-k8s.io/v1beta2 MachineDeployment',
      );
      expect(old.stdout).toContain('prod-east');
      const versions = await kubectl(r, 'api-versions');
      expect(versions.stdout).toContain('cluster.x-k8s.io/v1beta1');
      expect(versions.stdout).toContain('cluster.x-k8s.io/v1beta2');
    },
    WAIT_MS + 60_000,
  );

  it(
    'v1.16: v1beta2 only; the controllers run every machine in it',
    async () => {
      const r = await start('v1.16');
      expect(await demoMachinesRunning(r)).toBeGreaterThan(5);
      await v1beta2StatusWritten(r);
      const versions = await kubectl(r, 'api-versions');
      expect(versions.stdout).toContain('cluster.x-k8s.io/v1beta2');
      expect(versions.stdout.split('\n')).not.toContain('cluster.x-k8s.io/v1beta1');
      await expect(kubectl(r, 'get', 'machines.v1beta1.cluster.x-k8s.io', '-A')).rejects.toThrow();
    },
    WAIT_MS + 60_000,
  );
});

describe('upgradeCapi: Cluster API upgraded while the cluster serves (issue 23)', () => {
  it(
    'v1.10 → v1.14 → v1.16: the same objects, migrated to v1beta2; restarted controllers scale in it; no downgrade',
    async () => {
      const r = await start('v1.10');
      expect(await demoMachinesRunning(r)).toBeGreaterThan(5);
      const client = r.cluster.server.client;
      const before = client.list('cluster.x-k8s.io/v1beta1', 'MachineDeployment');
      const uids = before.map((o) => o.metadata.uid).sort();
      expect(r.cluster.server.storedVersions('cluster.x-k8s.io', 'machinedeployments')).toEqual([
        'cluster.x-k8s.io/v1beta1',
      ]);

      const first = await r.cluster.upgradeCapi('v1.14');
      expect(first).toMatchObject({ from: 'v1.10', to: 'v1.14' });
      expect(first.migrated).toBeGreaterThan(before.length);
      expect(r.cluster.capiRelease).toBe('v1.14');
      expect(r.cluster.capiVersions['cluster.x-k8s.io']).toBe('v1beta2');
      for (const plural of ['machinedeployments', 'machinesets', 'machines'])
        expect(r.cluster.server.storedVersions('cluster.x-k8s.io', plural)).toEqual([
          'cluster.x-k8s.io/v1beta2',
        ]);
      const old = await kubectl(r, 'get', 'machinedeployments.v1beta1.cluster.x-k8s.io', '-A');
      expect(old.stderr).toContain('is deprecated');

      await restartControllers(r);
      await r.cluster.upgradeCapi('v1.16');
      // The demo's seed goes on in the background: it speaks what the cluster serves now, and a
      // client that kept the old versions is answered with a rejection, never a throw.
      const ref = {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        namespace: 'cpaas-system',
        name: 'prod-east-legacy',
      };
      const live = seedClientInProcess(client, () => r.cluster.capiVersions);
      expect(await live.get?.(ref)).toMatchObject({ apiVersion: 'cluster.x-k8s.io/v1beta1' });
      const stale = seedClientInProcess(client, capiVersionsOf('v1.10'));
      await expect(stale.get?.(ref)).rejects.toThrow(/no kind "MachineDeployment"/);
      const versions = await kubectl(r, 'api-versions');
      expect(versions.stdout.split('\n')).not.toContain('cluster.x-k8s.io/v1beta1');
      const after = client.list('cluster.x-k8s.io/v1beta2', 'MachineDeployment');
      expect(after.map((o) => o.metadata.uid).sort()).toEqual(uids);
      await expect(r.cluster.upgradeCapi('v1.14')).rejects.toThrow(/cannot be downgraded/);

      await restartControllers(r);
      const md = client.get({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        namespace: 'cpaas-system',
        name: 'prod-east-legacy',
      }) as unknown as { spec: { replicas: number } };
      const want = md.spec.replicas + 1;
      await kubectl(
        r,
        'scale',
        'machinedeployment/prod-east-legacy',
        '-n',
        'cpaas-system',
        `--replicas=${String(want)}`,
      );
      await v1beta2StatusWritten(r);
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const d = client.get({
          apiVersion: 'cluster.x-k8s.io/v1beta2',
          kind: 'MachineDeployment',
          namespace: 'cpaas-system',
          name: 'prod-east-legacy',
        }) as unknown as { status?: { readyReplicas?: number } };
        if (d.status?.readyReplicas === want) break;
        if (Date.now() > deadline)
          throw new Error(`readyReplicas ${String(d.status?.readyReplicas)}, want ${String(want)}`);
        await new Promise((done) => setTimeout(done, 200));
      }
    },
    3 * WAIT_MS,
  );
});
