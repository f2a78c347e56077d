import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersionOf, kindTable, type ObjectOf, type ParsedKind } from '@dcs/domain';
import { startEmbeddedCluster, type EmbeddedCluster } from '../src/embedded';
import { clusterObjects, poolEntries, workerPoolObjects } from '../src/seed/objects';

/**
 * `pnpm sim:controllers --kubeconfig FILE` against another API server: here a second embedded
 * cluster started without controllers, reached only through the kubeconfig file.
 */

let cluster: EmbeddedCluster;
let dir: string;
let child: ChildProcess;
let output = '';

const get = <K extends ParsedKind>(kind: K, name: string) =>
  cluster.server.client.get({
    apiVersion: apiVersionOf(kindTable[kind]),
    kind,
    name,
    namespace: 'cpaas-system',
  }) as ObjectOf<K> | undefined;

async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-controllers-cli-'));
  cluster = await startEmbeddedCluster();
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, cluster.kubeconfig);
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/controllers.ts',
      '--kubeconfig',
      kubeconfig,
      '--time-scale',
      '1000',
      '--random-seed',
      '3',
      '--provider-version',
      '1.0.15',
      '--fail',
      'placement-stall:pool=cli-b-ippool',
    ],
    { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await until(
    'controllers running',
    () => output.includes('sim:controllers: running against'),
    60_000,
  );
}, 90_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await cluster.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pnpm sim:controllers --kubeconfig FILE', () => {
  it('reconciles a cluster and its pools on an API server it reaches only through the kubeconfig', async () => {
    for (const obj of [
      ...clusterObjects({
        name: 'cli',
        version: 'v1.34.1',
        endpoint: '10.7.0.10',
        replicas: 1,
        controlPlaneEntries: poolEntries({
          subnet: '10.7.0.',
          first: 11,
          count: 2,
          hostnamePrefix: 'cli-cp',
        }),
      }),
      ...workerPoolObjects({
        name: 'cli-a',
        cluster: 'cli',
        version: 'v1.34.1',
        replicas: 2,
        entries: poolEntries({
          subnet: '10.7.1.',
          first: 11,
          count: 2,
          hostnamePrefix: 'cli-a',
          persistentCpaas: true,
        }),
      }),
      ...workerPoolObjects({
        name: 'cli-b',
        cluster: 'cli',
        version: 'v1.34.1',
        replicas: 1,
        entries: poolEntries({ subnet: '10.7.2.', first: 11, count: 1, hostnamePrefix: 'cli-b' }),
      }),
    ]) {
      await cluster.server.client.create(obj);
    }
    await until(
      'cli-a ready',
      () => get('MachineDeployment', 'cli-a')?.status?.readyReplicas === 2,
      90_000,
    );
    // The --fail rule of the command line: cli-b's VM is stuck in placement (T-1).
    const stalled = await until('cli-b stalled', () =>
      (
        cluster.server.client.list(
          'infrastructure.cluster.x-k8s.io/v1beta1',
          'DCSMachine',
          'cpaas-system',
        ) as ObjectOf<'DCSMachine'>[]
      ).find(
        (d) =>
          d.metadata.name?.startsWith('cli-b') &&
          d.status?.cdRomFile &&
          d.status.vmState === 'creating',
      ),
    );
    expect(stalled.status?.networkConfig?.ip).toBe('10.7.2.11');
    const provider = cluster.server.client.get({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'cpaas-system',
      name: 'capdcs-controller-manager',
    }) as { metadata: { labels?: Record<string, string> } } | undefined;
    expect(provider?.metadata.labels?.['app.kubernetes.io/version']).toBe('1.0.15');
  }, 120_000);

  it('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(0);
    expect(output).toContain('sim:controllers: SIGTERM, stopping');
  }, 30_000);
});
