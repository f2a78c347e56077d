import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  aBootstrapTemplate,
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  aVersionsCatalog,
  controlPlaneLabels,
} from '@dcs/domain/testing';
import { startEmbeddedCluster } from '@dcs/simulator';
import { put } from '../test/support/seed';

/**
 * Benchmark child 1: the embedded API server with `--pools` worker pools of `--machines` machines
 * each (one cluster), and, on command, the API-server events: machine status changes at a fixed
 * rate, each stamped `bench:<seq>:<epoch ms>` in a condition message the machine view shows.
 * Talks JSON lines: prints `{"ready": …}`, reads `{"cmd": "events", "rate", "seconds"}`, and
 * answers `{"cmd": "stats"}` with the watches open on the server and its resourceVersion.
 */

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '50' },
    machines: { type: 'string', default: '100' },
    kubeconfig: { type: 'string' },
  },
});
const pools = Number(values.pools);
const perPool = Number(values.machines);
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const cluster = await startEmbeddedCluster({ host: '127.0.0.1', port: 0 });
const client = cluster.server.client;
const started = Date.now();
await put(client, aVersionsCatalog());
await put(client, aCluster());
await put(client, aKubeadmControlPlane());
await put(client, aMachineTemplate({ metadata: { name: 'demo-control-plane-template' } }));
for (let i = 0; i < 3; i++) {
  await put(
    client,
    aMachine({
      metadata: { name: `demo-control-plane-c${String(i)}`, labels: controlPlaneLabels() },
    }),
  );
}
const machineNames: string[] = [];
for (let p = 0; p < pools; p++) {
  const md = `demo-md-${String(p)}`;
  const ipPool = `${md}-ippool`;
  await put(
    client,
    aMachineTemplate({
      metadata: { name: `${md}-template` },
      spec: { template: { spec: { ipHostPoolRef: { name: ipPool } } } },
    }),
  );
  await put(client, aBootstrapTemplate({ metadata: { name: `${md}-kct` } }));
  const pool = anIpPool({ metadata: { name: ipPool }, entries: perPool });
  // Distinct addresses per pool (R-POOL-2 across pools).
  pool.spec = {
    ...pool.spec,
    pool: Array.from({ length: perPool }, (_, i) => ({
      ...anIpEntry(i + 1),
      ip: `10.${String(10 + Math.floor(p / 200))}.${String(p % 200)}.${String(i + 1)}`,
    })),
  };
  await put(client, pool);
  await put(
    client,
    aMachineDeployment({
      metadata: { name: md },
      spec: { replicas: perPool },
      status: {
        replicas: perPool,
        readyReplicas: perPool,
        updatedReplicas: perPool,
        availableReplicas: perPool,
      },
    }),
  );
  await put(
    client,
    aMachineSet({
      metadata: { name: `${md}-abc12`, labels: { 'cluster.x-k8s.io/deployment-name': md } },
      spec: { replicas: perPool },
    }),
  );
  for (let i = 0; i < perPool; i++) {
    const name = `${md}-abc12-m${String(i)}`;
    machineNames.push(name);
    const labels = {
      'cluster.x-k8s.io/cluster-name': 'demo',
      'cluster.x-k8s.io/deployment-name': md,
      'cluster.x-k8s.io/set-name': `${md}-abc12`,
    };
    await put(client, aMachine({ metadata: { name, labels } }));
    await put(
      client,
      aDCSMachine({
        metadata: { name },
        spec: { ipHostPoolRef: { name: ipPool } },
        status: {
          networkConfig: {
            ip: `10.${String(10 + Math.floor(p / 200))}.${String(p % 200)}.${String(i + 1)}`,
          },
        },
      }),
    );
  }
}
const kubeconfig = values.kubeconfig ?? '/tmp/bench-kubeconfig';
await writeFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
out({
  ready: cluster.url,
  pid: process.pid,
  kubeconfig,
  machines: machineNames.length,
  pools,
  seedSeconds: (Date.now() - started) / 1000,
});

let seq = 0;
/**
 * `rate` status changes a second for `seconds`, spread over every machine; with `focus`, every
 * `focusEvery`-th goes to that machine (the one a browser shows: bench part `screen`).
 */
async function events(
  rate: number,
  seconds: number,
  focus?: { name: string; every: number },
): Promise<void> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const t0 = Date.now();
  let failed = 0;
  /** When each change of the focus machine was written: [seq, epoch ms]. */
  const focusWrites: [number, number][] = [];
  for (let k = 0; k < total; k++) {
    // Paced against the start, so a slow write does not lower the rate.
    const due = t0 + k * interval;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const name =
      focus && k % focus.every === 0
        ? focus.name
        : (machineNames[(seq * 7919) % machineNames.length] ?? '');
    const stamp = `bench:${String(++seq)}:${String(Date.now())}`;
    if (focus?.name === name) focusWrites.push([seq, Date.now()]);
    try {
      await client.patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'Machine',
          name,
          namespace: 'cpaas-system',
        },
        'merge',
        {
          status: {
            conditions: [
              { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
              {
                type: 'NodeHealthy',
                status: 'True',
                lastTransitionTime: '2026-01-01T00:00:00Z',
                message: stamp,
              },
            ],
          },
        },
        { subresource: 'status' },
      );
    } catch {
      failed++;
    }
  }
  out({
    eventsDone: total,
    failed,
    firstSeq: seq - total + 1,
    lastSeq: seq,
    ...(focus ? { focusWrites } : {}),
    seconds: (Date.now() - t0) / 1000,
  });
}

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  const cmd = JSON.parse(line) as {
    cmd: string;
    rate?: number;
    seconds?: number;
    focus?: string;
    focusEvery?: number;
  };
  if (cmd.cmd === 'events')
    void events(
      cmd.rate ?? 50,
      cmd.seconds ?? 10,
      cmd.focus ? { name: cmd.focus, every: cmd.focusEvery ?? 10 } : undefined,
    );
  if (cmd.cmd === 'stats')
    out({
      stats: {
        watches: cluster.server.watchCount(),
        resourceVersion: cluster.server.resourceVersion,
      },
    });
  if (cmd.cmd === 'stop') void cluster.close().then(() => process.exit(0));
});
