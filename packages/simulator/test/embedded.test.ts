import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMachineDeployment, anIpPool } from '@dcs/domain/testing';
import { startEmbeddedCluster, type EmbeddedCluster } from '../src/embedded';

const run = promisify(execFile);
const kubectlAvailable = await run('kubectl', ['version', '--client']).then(
  () => true,
  () => false,
);
if (!kubectlAvailable)
  console.warn('embedded.test: no kubectl on PATH, the kubectl cases are skipped');

let cluster: EmbeddedCluster;
let dir: string;
let kubeconfig: string;

async function kubectl(
  args: string[],
  input?: string,
): Promise<{ code: number; out: string; err: string }> {
  // A cache of this server's discovery of its own: kubectl's default one is by host and port,
  // which another server, of another release, may have had (e2e fixtures/kubectl.ts).
  const argv = ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'kube-cache'), ...args];
  if (input !== undefined) {
    const file = join(dir, `input-${String(Date.now())}-${String(Math.random()).slice(2)}.json`);
    await writeFile(file, input);
    argv.push('-f', file);
  }
  try {
    const { stdout, stderr } = await run('kubectl', argv);
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? 1, out: err.stdout ?? '', err: err.stderr ?? '' };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-embedded-'));
  cluster = await startEmbeddedCluster();
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, cluster.kubeconfig);
});

afterAll(async () => {
  await cluster.close();
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(kubectlAvailable)('the embedded management cluster, through kubectl', () => {
  it('serves the Cluster API and DCS kinds with the short names kubectl users know', async () => {
    const { code, out } = await kubectl([
      'api-resources',
      '--api-group=cluster.x-k8s.io',
      '-o',
      'name',
    ]);
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual(
      expect.arrayContaining(['machinedeployments.cluster.x-k8s.io', 'machines.cluster.x-k8s.io']),
    );
    const md = await kubectl(['get', 'md', '-n', 'cpaas-system']);
    expect(md.code).toBe(0);
    const pools = await kubectl(['get', 'dcsiphostnamepools', '-A']);
    expect(pools.code).toBe(0);
  });

  it('R-MD-2: the MachineDeployment webhook denies maxSurge 0 with maxUnavailable 0, naming the rule', async () => {
    const md = aMachineDeployment({
      spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
    });
    const bad = {
      ...md,
      metadata: { name: 'webhook-md', namespace: 'cpaas-system' },
      status: undefined,
    };
    const { code, err } = await kubectl(['create'], JSON.stringify(bad));
    expect(code).not.toBe(0);
    // kubectl prints a 422's field causes, as it does for Cluster API's own webhook.
    expect(err).toContain('is invalid: spec.strategy.rollingUpdate.maxUnavailable');
    expect(err).toContain('R-MD-2');
    // The Status message a client sees reads like a webhook's.
    await expect(cluster.server.client.create(bad)).rejects.toThrow(
      'admission webhook "validation.machinedeployment.cluster.x-k8s.io" denied the request: R-MD-2',
    );
  });

  it('R-DISK-2: the pool webhook denies removing a persistent disk; kubectl can still create what the console only warns about', async () => {
    const pool = anIpPool({ entries: 1 });
    // R-POOL-3 is the console's rule, not the webhook's: a malformed gateway is stored.
    const created = { ...pool, metadata: { name: 'webhook-pool', namespace: 'cpaas-system' } };
    const entry = created.spec?.pool?.[0];
    if (!entry) throw new Error('builder gave no entry');
    entry.gateway = 'not-an-ip';
    expect((await kubectl(['create'], JSON.stringify(created))).code).toBe(0);
    const patch = JSON.stringify([{ op: 'remove', path: '/spec/pool/0/persistentDisk/0' }]);
    const { code, err } = await kubectl([
      'patch',
      'dcsiphostnamepool',
      'webhook-pool',
      '-n',
      'cpaas-system',
      '--type',
      'json',
      '-p',
      patch,
    ]);
    expect(code).not.toBe(0);
    expect(err).toContain('R-DISK-2');
  });

  it('failure injection: sim.dcs.io/refuse makes the server refuse every change to the object, until it is removed', async () => {
    const md = aMachineDeployment();
    const obj = {
      ...md,
      metadata: {
        name: 'refused-md',
        namespace: 'cpaas-system',
        annotations: { 'sim.dcs.io/refuse': 'frozen for maintenance' },
      },
      status: undefined,
    };
    expect((await kubectl(['create'], JSON.stringify(obj))).code).toBe(0);
    const scale = ['patch', 'md', 'refused-md', '-n', 'cpaas-system', '--type', 'merge'];
    const refused = await kubectl([...scale, '-p', '{"spec":{"replicas":7}}', '--dry-run=server']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('metadata.annotations.sim.dcs.io/refuse');
    expect(refused.err).toContain('frozen for maintenance');
    const freed = await kubectl([
      'annotate',
      'md',
      'refused-md',
      '-n',
      'cpaas-system',
      'sim.dcs.io/refuse-',
    ]);
    expect(freed.code, freed.err).toBe(0);
    expect((await kubectl([...scale, '-p', '{"spec":{"replicas":7}}'])).code).toBe(0);
  });

  it('the viewer context reads but cannot write', async () => {
    expect(
      (await kubectl(['--context', 'sim-viewer', 'get', 'machines', '-n', 'cpaas-system'])).code,
    ).toBe(0);
    const canCreate = await kubectl([
      '--context',
      'sim-viewer',
      'auth',
      'can-i',
      'create',
      'machinedeployments.cluster.x-k8s.io',
      '-n',
      'cpaas-system',
    ]);
    expect(canCreate.out.trim()).toBe('no');
    const canList = await kubectl([
      '--context',
      'sim-viewer',
      'auth',
      'can-i',
      'list',
      'machines.cluster.x-k8s.io',
      '-n',
      'cpaas-system',
    ]);
    expect(canList.out.trim()).toBe('yes');
    const secrets = await kubectl([
      '--context',
      'sim-viewer',
      'get',
      'secrets',
      '-n',
      'cpaas-system',
    ]);
    expect(secrets.code).not.toBe(0);
    expect(secrets.err).toContain('forbidden');
    const operator = await kubectl([
      'auth',
      'can-i',
      'create',
      'machinedeployments.cluster.x-k8s.io',
      '-n',
      'cpaas-system',
    ]);
    expect(operator.out.trim()).toBe('yes');
  });
});
