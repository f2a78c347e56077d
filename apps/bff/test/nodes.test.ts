import { KubeConfig } from '@kubernetes/client-node';
import { aNode } from '@dcs/domain/testing';
import type { ClusterNodeSummaries, ClusterNodesView, Machine, Node } from '@dcs/domain';
import { WorkloadClusters, type WorkloadCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsafeKubeconfigReason } from '../src/nodes/workload-nodes';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Issue 12: the workload cluster's Nodes, read through the `<cluster>-kubeconfig` Secret, for a
 * user allowed to read it; the reason for one who is not; "unreachable since" when the workload
 * cluster does not answer. One watch per workload cluster, whoever asks.
 */

const NS = 'cpaas-system';
const URL_NODES = `/api/v1/clusters/${NS}/demo/nodes`;
const SECRET = { apiVersion: 'v1', kind: 'Secret', namespace: NS, name: 'demo-kubeconfig' };

let t: TestCluster;
let local: FastifyInstance;
let token: FastifyInstance;
const workloads = new WorkloadClusters();
let wc: WorkloadCluster;
/** A Node or Machine as the in-process client takes it. */
const asObject = (n: Node | Machine) =>
  n as unknown as Parameters<WorkloadCluster['server']['client']['create']>[0];

async function writeSecret(kubeconfig: string) {
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: SECRET.name,
      namespace: NS,
      labels: { 'cluster.x-k8s.io/cluster-name': 'demo' },
    },
    type: 'cluster.x-k8s.io/secret',
    data: { value: Buffer.from(kubeconfig).toString('base64') },
  };
  if (t.cluster.server.client.get(SECRET)) await t.cluster.server.client.delete(SECRET);
  await t.cluster.server.client.create(body);
}

async function started(): Promise<WorkloadCluster> {
  const running = await workloads.ensure(NS, 'demo');
  if (!running) throw new Error('no workload cluster');
  return running;
}

async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  t = await startTestCluster();
  local = await buildTestApp(t);
  token = await buildTestApp(t, { mode: 'token' });
  wc = await started();
  const machines = t.cluster.server.client.list(
    'cluster.x-k8s.io/v1beta1',
    'Machine',
    NS,
  ) as Machine[];
  for (const m of machines) {
    const name = m.status?.nodeRef?.name ?? '';
    await wc.server.client.create(
      asObject(
        name === 'demo-md-0-abc12-m1'
          ? aNode(name, {
              spec: { unschedulable: true },
              status: {
                conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }],
              },
            })
          : aNode(name),
      ),
    );
  }
}, 60_000);
afterAll(async () => {
  await local.close();
  await token.close();
  await workloads.close();
  await t.close();
});

describe('the workload cluster’s Nodes (issue 12)', () => {
  it('says the control plane is not initialized while Cluster API has written no kubeconfig Secret', async () => {
    const res = await local.inject(URL_NODES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'no-kubeconfig', secret: `${NS}/demo-kubeconfig` });
  });

  it('shows each machine’s Node to a user who may read the Secret, and never the kubeconfig', async () => {
    await writeSecret(wc.kubeconfig);
    const res = await local.inject(URL_NODES);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json<Extract<ClusterNodesView, { status: 'ok' }>>();
    expect(view.status).toBe('ok');
    const byMachine = new Map(view.nodes.map((n) => [n.machine ?? '', n]));
    expect(byMachine.size).toBe(6);
    expect(byMachine.get('demo-md-0-abc12-m0')).toMatchObject({
      state: 'Ready',
      kubeletVersion: 'v1.33.4',
    });
    expect(byMachine.get('demo-md-0-abc12-m1')).toMatchObject({
      state: 'Cordoned',
      ready: 'False',
      unschedulable: true,
    });
    // Nothing of the kubeconfig leaves: not its token, not its CA, not its server.
    const config = new KubeConfig();
    config.loadFromString(wc.kubeconfig);
    expect(res.body).not.toContain(config.getCurrentUser()?.token ?? 'no token');
    expect(res.body).not.toContain(wc.server.url);
    expect(res.body).not.toContain('certificate-authority');
  });

  it('gives a user who may not read the Secret (the viewer, as upstream’s view role) the reason instead of Nodes', async () => {
    const s = new TestSession(token);
    expect((await s.signIn(t.cluster.viewerToken)).statusCode).toBe(200);
    const res = await s.request('GET', URL_NODES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'forbidden',
      secret: `${NS}/demo-kubeconfig`,
      message: `you may not read secret ${NS}/demo-kubeconfig`,
    });
    // The operator, signed in the same way, sees them.
    const op = new TestSession(token);
    await op.signIn(t.cluster.operatorToken);
    expect((await op.request('GET', URL_NODES)).json()).toMatchObject({ status: 'ok' });
  });

  it('answers one line per Node for the machines tables, one Node by name for the machine page', async () => {
    const res = await local.inject(`${URL_NODES}?fields=summary`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json<Extract<ClusterNodeSummaries, { status: 'ok' }>>();
    expect(view.nodes).toHaveLength(6);
    expect(view.nodes.find((n) => n.machine === 'demo-md-0-abc12-m0')).toEqual({
      name: 'demo-md-0-abc12-m0',
      machine: 'demo-md-0-abc12-m0',
      state: 'Ready',
      ready: 'True',
      unschedulable: false,
      kubeletVersion: 'v1.33.4',
    });
    // No conditions or taints: a fraction of the full answer, for 5,000 machines polled.
    expect(res.body.length * 3).toBeLessThan((await local.inject(URL_NODES)).body.length);
    const one = await local.inject(`${URL_NODES}?name=demo-md-0-abc12-m1`);
    const node = one.json<Extract<ClusterNodesView, { status: 'ok' }>>().nodes;
    expect(node.map((n) => [n.name, n.state])).toEqual([['demo-md-0-abc12-m1', 'Cordoned']]);
    expect(node[0]?.conditions.map((c) => [c.type, c.problem])).toEqual([['Ready', true]]);
    const none = await local.inject(`${URL_NODES}?name=no-such-node`);
    expect(none.json()).toMatchObject({ status: 'ok', nodes: [] });
  });

  it('refuses an unknown query field or value with a 400 naming it', async () => {
    for (const q of ['fields=all', 'name=Not_A_Node', 'nodes=1']) {
      const res = await local.inject(`${URL_NODES}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toMatch(new RegExp(q.split('=')[0] ?? ''));
    }
  });

  it('a change of a Machine the join reads (its drain starting) changes the ETag; other polls stay 304', async () => {
    const first = await local.inject(`${URL_NODES}?fields=summary`);
    const etag = String(first.headers.etag);
    const unchanged = await local.inject({
      url: `${URL_NODES}?fields=summary`,
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
    const server = t.cluster.server.client;
    const machine = server
      .list('cluster.x-k8s.io/v1beta1', 'Machine', NS)
      .find((m) => m.metadata.name === 'demo-md-0-abc12-m2') as Machine;
    await server.update(
      asObject({
        ...machine,
        status: { ...machine.status, deletion: { nodeDrainStartTime: '2026-01-01T10:00:00Z' } },
      }),
      { subresource: 'status' },
    );
    const changed = await eventually('the Machine change in the join', async () => {
      const r = await local.inject({
        url: `${URL_NODES}?fields=summary`,
        headers: { 'if-none-match': etag },
      });
      return r.statusCode === 200 ? r : undefined;
    });
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers an unchanged poll with 304 (ETag), and a changed Node with 200 and a new ETag', async () => {
    const first = await local.inject(`${URL_NODES}?fields=summary`);
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await local.inject({
      url: `${URL_NODES}?fields=summary`,
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The full answer and a filtered one are other representations: their ETags differ.
    const full = await local.inject({ url: URL_NODES, headers: { 'if-none-match': String(etag) } });
    expect(full.statusCode).toBe(200);
    expect(full.headers.etag).not.toBe(etag);
    // A Node cordoned in the workload cluster: the next poll sees it.
    const ref = { apiVersion: 'v1', kind: 'Node', name: 'demo-md-0-abc12-m2' };
    const current = wc.server.client.get(ref) as Node;
    await wc.server.client.update(
      asObject({ ...current, spec: { ...current.spec, unschedulable: true } }),
    );
    const changed = await eventually('the cordoned Node', async () => {
      const r = await local.inject({
        url: `${URL_NODES}?fields=summary`,
        headers: { 'if-none-match': String(etag) },
      });
      return r.statusCode === 200 ? r : undefined;
    });
    expect(changed.headers.etag).not.toBe(etag);
    const nodes = changed.json<Extract<ClusterNodeSummaries, { status: 'ok' }>>().nodes;
    expect(nodes.find((n) => n.name === 'demo-md-0-abc12-m2')?.state).toBe('Cordoned');
    // A reason is never cached: the viewer gets no ETag, and no 304 for the operator's ETag.
    const s = new TestSession(token);
    await s.signIn(t.cluster.viewerToken);
    const viewer = await s.request('GET', `${URL_NODES}?fields=summary`, undefined, {
      headers: { 'if-none-match': String(changed.headers.etag) },
    });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.headers.etag).toBeUndefined();
    expect(viewer.json()).toMatchObject({ status: 'forbidden' });
  });

  it('keeps one watch per workload cluster, however many users and requests ask', async () => {
    const op = new TestSession(token);
    await op.signIn(t.cluster.operatorToken);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? local.inject(URL_NODES) : op.request('GET', URL_NODES),
      ),
    );
    expect(answers.every((r) => r.json<{ status: string }>().status === 'ok')).toBe(true);
    expect(local.workloadNodes.size).toBe(1);
    expect(token.workloadNodes.size).toBe(1);
    // At most one watch per app on the workload server (two apps here: local and token mode),
    // not one per request or user.
    expect(wc.server.watchCount()).toBeGreaterThanOrEqual(1);
    expect(wc.server.watchCount()).toBeLessThanOrEqual(2);
  });

  it('puts the node states in the cluster’s and the pool’s diagnostics bundles', async () => {
    const cluster = await local.inject(`/api/v1/clusters/${NS}/demo/diagnostics`);
    expect(cluster.statusCode, cluster.body).toBe(200);
    const nodes = cluster.json<{ nodes: Extract<ClusterNodesView, { status: 'ok' }> }>().nodes;
    expect(nodes.nodes.map((n) => n.machine).sort()).toHaveLength(6);
    const pool = await local.inject(`/api/v1/clusters/${NS}/demo/nodepools/demo-md-0/diagnostics`);
    const poolNodes = pool.json<{ nodes: Extract<ClusterNodesView, { status: 'ok' }> }>().nodes;
    expect(poolNodes.nodes.map((n) => n.machine).sort()).toEqual([
      'demo-md-0-abc12-m0',
      'demo-md-0-abc12-m1',
      'demo-md-0-abc12-m2',
    ]);
    expect(cluster.body).not.toContain(wc.server.url);
  });

  it('says since when a workload cluster is unreachable, and follows the Secret to its new server', async () => {
    await workloads.stop(NS, 'demo');
    const down = await eventually('unreachable', async () => {
      const v = (await local.inject(URL_NODES)).json<ClusterNodesView>();
      return v.status === 'unreachable' ? v : undefined;
    });
    expect(Date.parse(down.since)).toBeLessThanOrEqual(Date.now());
    expect(down.message).toBeTruthy();
    // Restarted elsewhere (a new port, CA and token) and the Secret rewritten, as the simulator does.
    const again = await started();
    await again.server.client.create(asObject(aNode('demo-md-0-abc12-m0')));
    await writeSecret(again.kubeconfig);
    const back = await eventually('back', async () => {
      const v = (await local.inject(URL_NODES)).json<ClusterNodesView>();
      return v.status === 'ok' ? v : undefined;
    });
    expect(back.nodes.map((n) => n.name)).toEqual(['demo-md-0-abc12-m0']);
  }, 90_000);

  it('while the watch fails, re-reads the Secret every 5 s by itself and reconnects to the new address, with no request (issue 25)', async () => {
    // A watch someone asked for, with its reader.
    expect((await local.inject(URL_NODES)).json<ClusterNodesView>().status).toBe('ok');
    const before = await eventually('the watch to run', () =>
      Promise.resolve(
        local.workloadNodes.watches().find((w) => w.key === `${NS}/demo` && w.state === 'watching'),
      ),
    );
    await workloads.stop(NS, 'demo');
    await eventually('the watch to fail', () =>
      Promise.resolve(
        local.workloadNodes.watches().find((w) => w.key === `${NS}/demo`)?.failingSince,
      ),
    );
    // The controllers restart the workload cluster on a new port and rewrite the Secret; nobody
    // asks the console meanwhile.
    const again = await started();
    await again.server.client.create(asObject(aNode('demo-md-0-abc12-m9')));
    await writeSecret(again.kubeconfig);
    const deadline = Date.now() + 15_000;
    let now = local.workloadNodes.watches().find((w) => w.key === `${NS}/demo`);
    while (!(now && now.id !== before.id && now.state === 'watching') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = local.workloadNodes.watches().find((w) => w.key === `${NS}/demo`);
    }
    expect(now?.id).not.toBe(before.id);
    expect(now?.state).toBe('watching');
    expect(now?.failingSince).toBeUndefined();
    const v = (await local.inject(URL_NODES)).json<ClusterNodesView>();
    expect(v.status === 'ok' ? v.nodes.map((n) => n.name) : v).toEqual(['demo-md-0-abc12-m9']);
  }, 90_000);

  it('refuses a kubeconfig that would run a command, read a file or skip TLS verification on the BFF’s host', () => {
    const kc = (user: object, cluster: object = {}) => {
      const c = new KubeConfig();
      c.loadFromOptions({
        clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', ...cluster }],
        users: [{ name: 'u', ...user }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      return c;
    };
    expect(unsafeKubeconfigReason(kc({ token: 'a' }))).toBeUndefined();
    expect(
      unsafeKubeconfigReason(kc({ exec: { command: 'sh', args: ['-c', 'id'], apiVersion: 'x' } })),
    ).toMatch(/credential plugin/);
    expect(unsafeKubeconfigReason(kc({ keyFile: '/etc/shadow' }))).toMatch(/files/);
    expect(unsafeKubeconfigReason(kc({ token: 'a' }, { skipTLSVerify: true }))).toMatch(/TLS/);
    expect(unsafeKubeconfigReason(kc({ token: 'a' }, { caFile: '/etc/ssl/x' }))).toMatch(/CA file/);
    expect(unsafeKubeconfigReason(kc({ token: 'a' }, { server: 'http://10.0.0.1:6443' }))).toMatch(
      /not HTTPS/,
    );
  });
});
