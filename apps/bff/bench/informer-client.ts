import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { InformerFactory, type KubeObject } from '@dcs/informer';
import { CustomObjectsApi, KubeConfig, makeInformer } from '@kubernetes/client-node';

/**
 * Benchmark child of `bench:clients`: one informer on the cluster's Machines, either the BFF's
 * own (`--impl dcs`, @dcs/informer) or client-node's `makeInformer` (`--impl client-node`, what a
 * console built on client-node would use), alone in its process so that its RSS is its own.
 * Prints `{"synced": n, "ms"}` once the initial LIST is cached, records the delay of every
 * stamped event (`bench:<seq>:<epoch ms>` in a condition message, see cluster.ts), and answers
 * `{"cmd":"report"}` with the delays, the distinct sequence numbers seen and its RSS.
 */

const { values } = parseArgs({
  options: { impl: { type: 'string' }, kubeconfig: { type: 'string' } },
});
const impl = values.impl;
if (impl !== 'dcs' && impl !== 'client-node') throw new Error('--impl dcs|client-node');
const kc = new KubeConfig();
kc.loadFromFile(values.kubeconfig ?? '');
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const spec = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta1',
  plural: 'machines',
  namespace: 'cpaas-system',
};

const delays: number[] = [];
const seqs = new Set<number>();
let rssMax = 0;
const sample = setInterval(() => {
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
}, 100);
sample.unref();

interface Stamped {
  status?: { conditions?: { message?: string }[] };
}
function seen(o: Stamped): void {
  const now = Date.now();
  for (const c of o.status?.conditions ?? []) {
    const m = /^bench:(\d+):(\d+)$/.exec(c.message ?? '');
    if (!m) continue;
    const seq = Number(m[1]);
    if (seqs.has(seq)) continue;
    seqs.add(seq);
    delays.push(now - Number(m[2]));
  }
}

const started = performance.now();
let count: () => number;
let stop: () => Promise<void>;
if (impl === 'dcs') {
  const factory = new InformerFactory(kc);
  const machines = factory.informer<KubeObject & Stamped>(spec);
  machines.addEventHandler(
    {
      add: () => undefined,
      update: (m) => {
        seen(m);
      },
      delete: () => undefined,
    },
    { replay: false },
  );
  await machines.synced;
  count = () => machines.list().length;
  stop = () => factory.stop();
} else {
  const api = kc.makeApiClient(CustomObjectsApi);
  const path = `/apis/${spec.group}/${spec.version}/namespaces/${spec.namespace}/${spec.plural}`;
  const informer = makeInformer<{ metadata?: { name?: string } } & Stamped>(kc, path, () =>
    api.listNamespacedCustomObject(spec),
  );
  informer.on('update', (m) => {
    seen(m);
  });
  informer.on('error', (e: unknown) => {
    process.stderr.write(`client-node informer: ${String(e)}\n`);
  });
  await informer.start();
  count = () => informer.list().length;
  stop = () => informer.stop();
}
out({ synced: count(), ms: Math.round(performance.now() - started) });

createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as { cmd: string };
  if (cmd.cmd === 'report') {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
    out({ report: { delays, seqs: [...seqs], cached: count(), rssMb: rssMax / 2 ** 20 } });
  }
  if (cmd.cmd === 'stop') void stop().then(() => process.exit(0));
});
