import { writeSync } from 'node:fs';
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
import { FakeCluster } from '../test/fakes/fake-source';
import { ObjectCache } from '../src/cache/object-cache';
import { ModelRegistry } from '../src/views/model-registry';
import { StreamHub } from '../src/stream/hub';

/**
 * `pnpm --filter @dcs/bff bench:event-cost`: the BFF's own CPU time per machine status event, in
 * one process and without sockets — cache update, dirty marks, the pool's rebuild, the frames
 * serialized once and handed to every client (writers that only count bytes). What the fan-out
 * bench cannot separate from kernel time and the machine's load; a profile of it
 * (`node --cpu-prof --import tsx bench/event-cost.ts`) shows where a change's work goes.
 * POOLS (50) × 100 machines, CLIENTS (100), EVENTS (2,000, after 500 to warm up), PER_FLUSH (3:
 * events a refresh gathers, as the stream's batch window does at 50 events/s).
 */

const pools = Number(process.env.POOLS ?? 50);
const perPool = 100;
const clients = Number(process.env.CLIENTS ?? 100);
const events = Number(process.env.EVENTS ?? 2000);
const perFlush = Number(process.env.PER_FLUSH ?? 3);
if (
  process.argv.slice(2).some((a) => a !== '--') ||
  ![pools, clients, events, perFlush].every((n) => Number.isInteger(n) && n > 0)
) {
  console.error(
    'bench:event-cost: takes no arguments; POOLS, CLIENTS, EVENTS, PER_FLUSH must be positive integers',
  );
  process.exit(2);
}
// DCS_CHECK_ARGS=1: the settings are parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ pools, clients, events, perFlush })}\n`);
  process.exit(0);
}

const fake = new FakeCluster();
const cache = new ObjectCache(fake.factory, []);
cache.start();
fake.put(
  aCluster(),
  aKubeadmControlPlane(),
  aMachineTemplate({ metadata: { name: 'demo-control-plane-template' } }),
);
for (let i = 0; i < 3; i++)
  fake.put(
    aMachine({
      metadata: { name: `demo-control-plane-c${String(i)}`, labels: controlPlaneLabels() },
    }),
  );
type Machine = ReturnType<typeof aMachine>;
const machines: Machine[] = [];
for (let p = 0; p < pools; p++) {
  const md = `demo-md-${String(p)}`;
  const ipPool = `${md}-ippool`;
  const pool = anIpPool({ metadata: { name: ipPool }, entries: perPool });
  pool.spec = {
    ...pool.spec,
    pool: Array.from({ length: perPool }, (_, i) => ({
      ...anIpEntry(i + 1),
      ip: `10.10.${String(p)}.${String(i + 1)}`,
    })),
  };
  fake.put(
    aMachineTemplate({
      metadata: { name: `${md}-template` },
      spec: { template: { spec: { ipHostPoolRef: { name: ipPool } } } },
    }),
    aBootstrapTemplate({ metadata: { name: `${md}-kct` } }),
    pool,
    aMachineDeployment({ metadata: { name: md }, spec: { replicas: perPool } }),
    aMachineSet({
      metadata: { name: `${md}-abc12`, labels: { 'cluster.x-k8s.io/deployment-name': md } },
      spec: { replicas: perPool },
    }),
  );
  for (let i = 0; i < perPool; i++) {
    const name = `${md}-abc12-m${String(i)}`;
    const labels = {
      'cluster.x-k8s.io/cluster-name': 'demo',
      'cluster.x-k8s.io/deployment-name': md,
      'cluster.x-k8s.io/set-name': `${md}-abc12`,
    };
    const m = aMachine({ metadata: { name, labels } });
    machines.push(m);
    fake.put(
      m,
      aDCSMachine({
        metadata: { name },
        spec: { ipHostPoolRef: { name: ipPool } },
        status: { networkConfig: { ip: `10.10.${String(p)}.${String(i + 1)}` } },
      }),
    );
  }
}
fake.put(aVersionsCatalog());
const registry = new ModelRegistry(cache, { context: () => ({ versions: [] }) });
const hub = new StreamHub(registry, {
  epoch: 'E',
  heartbeatMs: 3_600_000,
  replayEvents: 1000,
  clientBuffer: 1000,
  maxClients: 100_000,
  flushDelayMs: 1e9,
  minFlushIntervalMs: 1e9,
});
let bytes = 0;
for (let i = 0; i < clients; i++)
  hub.subscribe({
    namespace: 'cpaas-system',
    cluster: 'demo',
    lastEventId: undefined,
    writer: {
      write: (c) => {
        bytes += c.length;
        return true;
      },
      onDrain: () => undefined,
      end: () => undefined,
    },
  });
const model = registry.get('cpaas-system', 'demo');
registry.refresh(model);
/** CPU time inside refresh-and-send (views, frames, writes), apart from the cache's update. */
let refreshUs = 0;
function refresh(): void {
  const c = process.cpuUsage();
  registry.refresh(model);
  const u = process.cpuUsage(c);
  refreshUs += u.user + u.system;
}
function run(n: number): number {
  refreshUs = 0;
  const c0 = process.cpuUsage();
  for (let k = 0; k < n; k++) {
    const m = machines[(k * 7919) % machines.length];
    if (!m) continue;
    const changed: Machine = {
      ...m,
      status: {
        ...m.status,
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
          {
            type: 'NodeHealthy',
            status: 'True',
            lastTransitionTime: '2026-01-01T00:00:00Z',
            message: `bench:${String(k)}:${String(Date.now())}`,
          },
        ],
      },
    };
    fake.put(changed);
    if ((k + 1) % perFlush === 0) refresh();
  }
  refresh();
  const u = process.cpuUsage(c0);
  return (u.user + u.system) / 1000 / n;
}
run(500);
bytes = 0;
const ms = run(events);
console.log(
  `${String(pools * perPool)} machines, ${String(clients)} clients, ${String(perFlush)} events per flush: ${ms.toFixed(3)} ms CPU per event (${(refreshUs / 1000 / events).toFixed(3)} ms of it refreshing views and sending, the rest the cache's update), ${String(Math.round(bytes / events / clients))} B per event per client`,
);
hub.stop();
process.exit(0);
