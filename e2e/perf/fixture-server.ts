import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { extname, join, normalize } from 'node:path';
import { buildClusterViews, indexObjects, type ClusterViews, type MachineView } from '@dcs/domain';
import {
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  aBootstrapTemplate,
  anIpPool,
  aValidationContext,
  controlPlaneLabels,
  DEMO_CATALOG,
} from '@dcs/domain/testing';

/**
 * The web app's performance harness: the built SPA with a BFF stand-in that answers the read
 * routes with real view models (domain's view functions over domain's builders) for a cluster of
 * `pools` worker pools × `perPool` machines, and a stream that sends machine upserts at `rate`
 * per second on request. It measures the browser side alone; the BFF has its own benchmarks.
 */

/** The web build's compressed copies, in the order the BFF prefers them. */
const PRECOMPRESSED: readonly (readonly [encoding: string, suffix: string])[] = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

export interface PerfCluster {
  views: ClusterViews;
  machines: MachineView[];
}

export function bigCluster(pools: number, perPool: number): PerfCluster {
  const now = new Date();
  const mds = [];
  const sets = [];
  const machines = [];
  const dcs = [];
  const templates = [];
  const ipPools = [];
  for (let p = 0; p < pools; p++) {
    const name = `demo-pool-${String(p).padStart(2, '0')}`;
    mds.push(aMachineDeployment({ metadata: { name }, spec: { replicas: perPool } }));
    sets.push(
      aMachineSet({
        metadata: { name: `${name}-abc12`, labels: { 'cluster.x-k8s.io/deployment-name': name } },
        spec: { replicas: perPool },
      }),
    );
    templates.push(
      aMachineTemplate({
        metadata: { name: `${name}-template` },
        spec: { template: { spec: { ipHostPoolRef: { name: `${name}-ippool` } } } },
      }),
    );
    ipPools.push(anIpPool({ metadata: { name: `${name}-ippool` }, entries: 0 }));
    for (let m = 0; m < perPool; m++) {
      const mname = `${name}-abc12-m${String(m).padStart(3, '0')}`;
      machines.push(
        aMachine({
          metadata: {
            name: mname,
            labels: {
              'cluster.x-k8s.io/deployment-name': name,
              'cluster.x-k8s.io/set-name': `${name}-abc12`,
            },
          },
          spec: { infrastructureRef: { name: mname } },
        }),
      );
      dcs.push(
        aDCSMachine({
          metadata: { name: mname },
          spec: { ipHostPoolRef: { name: `${name}-ippool` } },
        }),
      );
    }
  }
  const cp = [1, 2, 3].map((n) =>
    aMachine({ metadata: { name: `demo-control-plane-${n}`, labels: controlPlaneLabels() } }),
  );
  const index = indexObjects({
    clusters: [aCluster()],
    kubeadmControlPlanes: [aKubeadmControlPlane()],
    machineDeployments: mds,
    machineSets: sets,
    machines: [...machines, ...cp],
    dcsMachines: dcs,
    machineTemplates: templates,
    bootstrapTemplates: [aBootstrapTemplate()],
    ipPools,
  });
  const views = buildClusterViews(
    index,
    { namespace: 'cpaas-system', name: 'demo' },
    { now, versions: DEMO_CATALOG, providerVersion: '1.0.16' },
  );
  if (!views) throw new Error('no views');
  return { views, machines: views.machines };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

export function serve(
  dist: string,
  cluster: PerfCluster,
  port: number,
  rate: number,
): Promise<{ close: () => Promise<void> }> {
  const streams = new Set<ServerResponse>();
  let seq = 0;
  /** As the BFF answers (apps/bff/src/http/compression.ts): br at quality 4, else gzip, ≥ 1 KiB. */
  const json = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const text = Buffer.from(JSON.stringify(body));
    const accepted = req.headers['accept-encoding'] ?? '';
    const encoding =
      text.length < 1024
        ? undefined
        : accepted.includes('br')
          ? 'br'
          : accepted.includes('gzip')
            ? 'gzip'
            : undefined;
    res.writeHead(200, {
      'content-type': 'application/json',
      vary: 'Accept-Encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(
      encoding === 'br'
        ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
        : encoding === 'gzip'
          ? gzipSync(text)
          : text,
    );
  };
  const burst = (seconds: number) => {
    const perTick = Math.max(1, Math.round(rate / 20));
    let ticks = seconds * 20;
    const timer = setInterval(() => {
      for (let i = 0; i < perTick; i++) {
        const m = cluster.machines[seq % cluster.machines.length];
        if (!m) continue;
        seq++;
        const view = {
          ...m,
          resourceVersion: String(seq),
          phase: seq % 2 ? 'Running' : 'Provisioning',
        };
        const frame = `id: perf-${seq}\ndata: ${JSON.stringify({ type: 'upsert', kind: 'machine', id: m.id, view })}\n\n`;
        for (const s of streams) s.write(frame);
      }
      if (--ticks <= 0) clearInterval(timer);
    }, 50);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname;
    // `…/nodepools/{pool}/machines` (a pool's page): that pool's machines alone.
    const poolMachines = /\/nodepools\/([^/]+)\/machines$/.exec(p)?.[1];
    const body: unknown =
      p === '/api/v1/session'
        ? {
            authenticated: true,
            mode: 'local',
            user: { username: 'perf', groups: [] },
            csrfToken: 'perf',
            epoch: 'perf',
          }
        : p === '/api/v1/clusters'
          ? [cluster.views.cluster]
          : p.endsWith('/context')
            ? {
                ...aValidationContext(),
                permissions: {
                  createPool: { allowed: true },
                  scale: { allowed: true },
                  upgrade: { allowed: true },
                  deletePool: { allowed: true },
                },
              }
            : p.endsWith('/nodepools')
              ? cluster.views.pools
              : poolMachines
                ? cluster.machines.filter((m) => m.poolId === decodeURIComponent(poolMachines))
                : p.endsWith('/machines')
                  ? cluster.machines
                  : undefined;
    if (body !== undefined) {
      json(req, res, body);
      return;
    }
    if (p === '/api/v1/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': hello\n\n');
      streams.add(res);
      req.on('close', () => {
        streams.delete(res);
      });
      return;
    }
    if (p === '/perf/burst') {
      burst(Number(url.searchParams.get('seconds') ?? '10'));
      json(req, res, { ok: true });
      return;
    }
    if (p.startsWith('/api/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'NotFound', message: 'not in the perf harness', details: [] }),
      );
      return;
    }
    let file = join(dist, normalize(p));
    try {
      if (!statSync(file).isFile()) file = join(dist, 'index.html');
    } catch {
      file = join(dist, 'index.html');
    }
    // As the BFF's static plugin serves it: the build's `.br`/`.gz` copy by Accept-Encoding.
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const accepted = req.headers['accept-encoding'] ?? '';
    const copy = PRECOMPRESSED.find(
      ([encoding, suffix]) => accepted.includes(encoding) && existsSync(file + suffix),
    );
    res.writeHead(200, {
      'content-type': type,
      vary: 'Accept-Encoding',
      ...(copy ? { 'content-encoding': copy[0] } : {}),
    });
    res.end(readFileSync(copy ? file + copy[1] : file));
  });
  return new Promise((ok) => {
    server.listen(port, '127.0.0.1', () => {
      ok({
        close: () =>
          new Promise<void>((done) => {
            for (const s of streams) s.end();
            server.close(() => {
              done();
            });
          }),
      });
    });
  });
}
