#!/usr/bin/env node
// The machine's speed just before a part of `pnpm bench` runs (bench/run.mjs), printed as one line
// of JSON: what the part's section of the table names beside its load average, so that two runs
// can be told apart as a slower machine or slower code. This machine is a shared virtual one: the
// same code measured 60.7 s for the simulator's 5,000 machines in one session and 45.8 s in the
// next, on another virtual machine of the same kind, the load average near 1 both times. Two
// figures stand for the two costs the benchmarks spend most on, each the median of 9 rounds (one
// process, one core, about a second in all):
// - JSON: µs to parse and serialize a Machine of ~1.4 KB (the API server's and the informers' work);
// - loopback TCP: µs per round trip of 1 KiB between two sockets of this process (two writes, two
//   reads and their wake-ups: the fan-out's and the watch's cost per client).
// And the CPU time the host took from this machine meanwhile (`steal` in /proc/stat), in percent.
//   node bench/calibrate.mjs
import { readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { cpus } from 'node:os';

const ROUNDS = 9;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A Machine as the simulator writes one: spec, labels, conditions (~1.4 KB of JSON). */
function machine(i) {
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: `pool-a-md-7c9f8-${i}`,
      namespace: 'default',
      uid: `0c2e7d5a-1b3f-4c8e-9a6d-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100_000 + i),
      generation: 2,
      creationTimestamp: time,
      labels: {
        'cluster.x-k8s.io/cluster-name': 'prod',
        'cluster.x-k8s.io/deployment-name': 'pool-a',
        'cluster.x-k8s.io/set-name': 'pool-a-7c9f8',
      },
      ownerReferences: [
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'MachineSet',
          name: 'pool-a-7c9f8',
          uid: '5d1c2b3a-4e5f-6a7b-8c9d-0e1f2a3b4c5d',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      clusterName: 'prod',
      version: 'v1.30.4',
      bootstrap: { configRef: { kind: 'KubeadmConfig', name: `pool-a-${i}` } },
      infrastructureRef: { kind: 'DCSMachine', name: `pool-a-${i}` },
      providerID: `dcs://vm-${i}`,
    },
    status: {
      phase: 'Running',
      bootstrapReady: true,
      infrastructureReady: true,
      nodeRef: { kind: 'Node', name: `pool-a-md-7c9f8-${i}` },
      addresses: [{ type: 'InternalIP', address: `10.0.${(i >> 8) & 255}.${i & 255}` }],
      conditions: ['Ready', 'BootstrapReady', 'InfrastructureReady', 'NodeHealthy'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: time,
      })),
    },
  };
}

function jsonMicros() {
  const texts = Array.from({ length: 500 }, (_, i) => JSON.stringify(machine(i)));
  const rounds = [];
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    for (let k = 0; k < 4; k++) for (const t of texts) sink += JSON.stringify(JSON.parse(t)).length;
    rounds.push(((performance.now() - started) * 1000) / (4 * texts.length));
  }
  if (sink === 0) throw new Error('unreachable');
  return median(rounds);
}

async function tcpMicros() {
  const server = createServer((s) => {
    s.setNoDelay(true);
    s.on('data', (d) => s.write(d));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const client = connect(server.address().port, '127.0.0.1');
  client.setNoDelay(true);
  await new Promise((ok) => client.once('connect', ok));
  const payload = Buffer.alloc(1024, 120);
  const trips = 1_000;
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    await new Promise((done) => {
      let left = trips;
      let got = 0;
      const onData = (d) => {
        got += d.length;
        if (got < payload.length) return;
        got -= payload.length;
        if (--left === 0) {
          client.off('data', onData);
          done();
        } else client.write(payload);
      };
      client.on('data', onData);
      client.write(payload);
    });
    rounds.push(((performance.now() - started) * 1000) / trips);
  }
  client.destroy();
  await new Promise((ok) => server.close(ok));
  return median(rounds);
}

/** The `cpu` line of /proc/stat: [total ticks, steal ticks]; undefined off Linux. */
function cpuTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
    const n = fields.map(Number);
    return [
      n.reduce((a, b) => a + b, 0),
      n[7] ?? 0, // user nice system idle iowait irq softirq steal …
    ];
  } catch {
    return undefined;
  }
}

const before = cpuTicks();
const json = jsonMicros();
const tcp = await tcpMicros();
const after = cpuTicks();
const stealPercent =
  before && after && after[0] > before[0]
    ? (100 * (after[1] - before[1])) / (after[0] - before[0])
    : undefined;
console.log(
  JSON.stringify({
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    jsonMicros: Number(json.toFixed(2)),
    tcpMicros: Number(tcp.toFixed(1)),
    ...(stealPercent === undefined ? {} : { stealPercent: Number(stealPercent.toFixed(1)) }),
  }),
);
