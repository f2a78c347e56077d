/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment -- responses are arbitrary JSON from the wire; tests assert on them */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type KubeObject } from '../src/index';
import { startTestServer, type TestServer } from './support/server';

/**
 * Pods, PodDisruptionBudgets and the `pods/eviction` subresource (issue 26 item 6), with the
 * semantics of kube-apiserver's eviction.go; and `kubectl drain` against them, as against a real
 * cluster. The test plays the kubelet: it deletes terminating Pods with grace period 0.
 */

let t: TestServer;
let kubelet: ReturnType<typeof setInterval> | undefined;

const P = '/api/v1/namespaces/default/pods';
const PDB = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

function pod(
  name: string,
  node: string,
  labels: Record<string, string> = { app: 'web' },
  owner: { kind: string; name: string } = { kind: 'ReplicaSet', name: 'web' },
  ready = true,
  namespace = 'default',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: owner.kind,
          name: owner.name,
          uid: `uid-${owner.name}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'c', image: 'nginx:1.27' }],
    },
    status: {
      phase: 'Running',
      podIP: '10.244.0.9',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [
        {
          name: 'c',
          ready,
          restartCount: 0,
          state: { running: { startedAt: '2026-12-07T10:00:00Z' } },
        },
      ],
    },
  };
}

/** Creates the Pod, and its owner first (the garbage collector deletes a Pod whose owner is gone). */
async function createPod(p: KubeObject): Promise<void> {
  for (const ref of p.metadata.ownerReferences ?? []) {
    const ownerRef = {
      apiVersion: 'apps/v1',
      kind: ref.kind,
      name: ref.name,
      namespace: p.metadata.namespace ?? '',
    };
    const owner =
      t.server.client.get(ownerRef) ??
      (await t.server.client.create({
        apiVersion: 'apps/v1',
        kind: ref.kind,
        metadata: { name: ref.name, namespace: p.metadata.namespace ?? '' },
        spec: {
          selector: { matchLabels: p.metadata.labels ?? {} },
          template: {
            metadata: { labels: p.metadata.labels ?? {} },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      }));
    ref.uid = owner.metadata.uid ?? '';
  }
  const created = await t.server.client.create(p);
  // Status as its kubelet posts it.
  await t.server.client.update({ ...created, status: p.status }, { subresource: 'status' });
}

/** A budget whose status says what a disruption controller would. */
async function budget(
  name: string,
  selector: Record<string, string>,
  status: { desired: number; current: number; allowed: number },
): Promise<void> {
  const created = await t.server.client.create({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { minAvailable: status.desired, selector: { matchLabels: selector } },
  });
  await t.server.client.update(
    {
      ...created,
      status: {
        observedGeneration: created.metadata.generation,
        currentHealthy: status.current,
        desiredHealthy: status.desired,
        expectedPods: status.current,
        disruptionsAllowed: status.allowed,
      },
    },
    { subresource: 'status' },
  );
}

const eviction = (name: string, deleteOptions?: Record<string, unknown>) => ({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name, namespace: 'default' },
  ...(deleteOptions ? { deleteOptions } : {}),
});

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});
afterEach(async () => {
  if (kubelet) clearInterval(kubelet);
  kubelet = undefined;
  for (const [apiVersion, kind] of [
    ['v1', 'Pod'],
    ['policy/v1', 'PodDisruptionBudget'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'],
  ] as const) {
    for (const o of t.server.client.list(apiVersion, kind)) {
      await t.server.client
        .delete(
          { apiVersion, kind, name: o.metadata.name ?? '', namespace: o.metadata.namespace ?? '' },
          { gracePeriodSeconds: 0 },
        )
        .catch(() => undefined);
    }
  }
});

describe('Pods', () => {
  it('lists a Node’s Pods by the spec.nodeName field selector, as a drain does', async () => {
    await createPod(pod('a', 'n1'));
    await createPod(pod('b', 'n2'));
    const r = await t.api('GET', `/api/v1/pods?fieldSelector=spec.nodeName%3Dn1`);
    expect(r.status).toBe(200);
    expect(r.body.items.map((p: KubeObject) => p.metadata.name)).toEqual(['a']);
    const none = await t.api('GET', `/api/v1/pods?fieldSelector=spec.nodeName%3D`);
    expect(none.body.items).toEqual([]);
  });

  it('deletes a bound Pod gracefully: deletionTimestamp ahead by its grace period, gone at 0', async () => {
    await createPod(pod('a', 'n1'));
    const r = await t.api('DELETE', `${P}/a`);
    expect(r.status).toBe(200);
    expect(r.body.metadata.deletionGracePeriodSeconds).toBe(30);
    const ahead = Date.parse(r.body.metadata.deletionTimestamp) - Date.now();
    expect(ahead).toBeGreaterThan(28_000);
    expect(ahead).toBeLessThanOrEqual(30_000);
    // A longer grace period does not lengthen it; a shorter one shortens it.
    const again = await t.api('DELETE', `${P}/a`, { body: { gracePeriodSeconds: 60 } });
    expect(again.body.metadata.deletionGracePeriodSeconds).toBe(30);
    const shorter = await t.api('DELETE', `${P}/a`, { body: { gracePeriodSeconds: 5 } });
    expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(5);
    const table = await t.api('GET', `${P}/a`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['a', '1/1', 'Terminating']);
    // The kubelet's final delete.
    expect((await t.api('DELETE', `${P}/a`, { body: { gracePeriodSeconds: 0 } })).status).toBe(200);
    expect((await t.api('GET', `${P}/a`)).status).toBe(404);
  });

  it('deletes a Pod bound to no Node at once', async () => {
    const p = pod('u', '');
    delete (p.spec as Record<string, unknown>).nodeName;
    await createPod(p);
    expect((await t.api('DELETE', `${P}/u`)).status).toBe(200);
    expect((await t.api('GET', `${P}/u`)).status).toBe(404);
  });
});

describe('PodDisruptionBudget', () => {
  it('is validated as kube-apiserver validates it', async () => {
    const both = await t.api('POST', PDB, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'x' },
        spec: { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
    });
    expect(both.status).toBe(422);
    expect(both.body.message).toContain('minAvailable and maxUnavailable cannot be both set');
    const pct = await t.api('POST', PDB, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'x' },
        spec: { maxUnavailable: '120%' },
      },
    });
    expect(pct.status).toBe(422);
    expect(pct.body.message).toContain(
      'spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
    );
    const neg = await t.api('POST', PDB, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'x' },
        spec: { minAvailable: 'half' },
      },
    });
    expect(neg.status).toBe(422);
    expect(neg.body.message).toContain(
      "a valid percent string must be a numeric string followed by an ending '%'",
    );
  });
});

describe('pods/eviction', () => {
  it('is in discovery as kubectl drain looks for it (policy/v1 Eviction)', async () => {
    const r = await t.api('GET', '/api/v1');
    const ev = r.body.resources.find((x: { name: string }) => x.name === 'pods/eviction');
    expect(ev).toMatchObject({
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
  });

  it('without a budget: the Pod gets its deletionTimestamp, 201 Success', async () => {
    await createPod(pod('a', 'n1'));
    const r = await t.api('POST', `${P}/a/eviction`, { body: eviction('a') });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    const after = await t.api('GET', `${P}/a`);
    expect(after.body.metadata.deletionTimestamp).toBeTruthy();
  });

  it('a budget that allows a disruption is decremented and notes the Pod', async () => {
    await createPod(pod('a', 'n1'));
    await createPod(pod('b', 'n2'));
    await budget('web', { app: 'web' }, { desired: 1, current: 2, allowed: 1 });
    const r = await t.api('POST', `${P}/a/eviction`, { body: eviction('a') });
    expect(r.status).toBe(201);
    const pdb = (await t.api('GET', `${PDB}/web`)).body;
    expect(pdb.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status.disruptedPods)).toEqual(['a']);
    expect(pdb.status.conditions).toMatchObject([
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' },
    ]);
    // Now it refuses: 429 with kube's message and the DisruptionBudget cause.
    const refused = await t.api('POST', `${P}/b/eviction`, { body: eviction('b') });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web needs 1 healthy pods and has 2 currently',
          },
        ],
      },
      code: 429,
    });
    expect((await t.api('GET', `${P}/b`)).body.metadata.deletionTimestamp).toBeUndefined();
    // A dry run is refused alike and changes nothing.
    const dry = await t.api('POST', `${P}/b/eviction?dryRun=All`, { body: eviction('b') });
    expect(dry.status).toBe(429);
  });

  it('a terminating, Pending or finished Pod goes without asking the budget', async () => {
    const p = pod('a', 'n1');
    (p.status as Record<string, unknown>).phase = 'Pending';
    await createPod(p);
    await budget('web', { app: 'web' }, { desired: 1, current: 1, allowed: 0 });
    expect((await t.api('POST', `${P}/a/eviction`, { body: eviction('a') })).status).toBe(201);
  });

  it('more than one budget: 500 as kube answers', async () => {
    await createPod(pod('a', 'n1'));
    await budget('one', { app: 'web' }, { desired: 0, current: 1, allowed: 1 });
    await budget('two', { app: 'web' }, { desired: 0, current: 1, allowed: 1 });
    const r = await t.api('POST', `${P}/a/eviction`, { body: eviction('a') });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  });

  it('a budget not yet observed at its generation: 429 "still being processed", retry after 10 s', async () => {
    await createPod(pod('a', 'n1'));
    await t.server.client.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'fresh', namespace: 'default' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    const r = await t.api('POST', `${P}/a/eviction`, { body: eviction('a') });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('10');
    expect(r.body.details.causes[0].message).toBe(
      'The disruption budget fresh is still being processed by the server.',
    );
  });

  it('refuses a body that names another Pod, and a Pod that does not exist', async () => {
    await createPod(pod('a', 'n1'));
    const r = await t.api('POST', `${P}/a/eviction`, { body: eviction('b') });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('name in URL does not match name in Eviction object');
    const missing = await t.api('POST', `${P}/zz/eviction`, { body: eviction('zz') });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('pods "zz" not found');
  });

  it('the in-process client evicts through the same path (429 carries the cause)', async () => {
    await createPod(pod('a', 'n1'));
    await budget('web', { app: 'web' }, { desired: 1, current: 1, allowed: 0 });
    const err = await t.server.client.evict('default', 'a').catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [{ message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }],
      },
    });
  });
});

function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}
const kubectl = findKubectl();

describe.skipIf(!kubectl)('kubectl drain against the server', () => {
  let dir: string;
  const run = (args: string[]): Promise<{ code: number; out: string; err: string }> =>
    new Promise((resolve) => {
      execFile(
        kubectl ?? 'kubectl',
        args,
        {
          env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            out: stdout,
            err: stderr,
          });
        },
      );
    });

  // kubectl sends its token over HTTPS only: this block has a TLS server of its own.
  let plain: TestServer;
  beforeAll(async () => {
    plain = t;
    const server = await startApiServer({
      tokens: [{ token: 'admin', user: 'admin', groups: ['system:masters'] }],
    });
    t = { server, api: plain.api };
    dir = mkdtempSync(join(tmpdir(), 'apiserver-drain-'));
    writeFileSync(
      join(dir, 'kubeconfig'),
      server.kubeconfig([{ name: 'admin', token: 'admin', namespace: 'default' }]),
    );
  });
  afterAll(async () => {
    await t.server.close();
    t = plain;
  });

  async function nodeWithWorkload(node: string): Promise<void> {
    await t.server.client
      .create({ apiVersion: 'v1', kind: 'Node', metadata: { name: node }, spec: {} })
      .catch(() => undefined);
    await createPod(pod(`web-${node}`, node));
    await createPod(
      pod(
        `kube-proxy-${node}`,
        node,
        { k8s: 'kube-proxy' },
        { kind: 'DaemonSet', name: 'kube-proxy' },
        true,
        'kube-system',
      ),
    );
  }

  /** The kubelet: terminating Pods are gone shortly after. */
  function startKubelet(): void {
    kubelet = setInterval(() => {
      for (const p of t.server.client.list('v1', 'Pod')) {
        if (!p.metadata.deletionTimestamp) continue;
        void t.server.client
          .delete(
            {
              apiVersion: 'v1',
              kind: 'Pod',
              name: p.metadata.name ?? '',
              namespace: p.metadata.namespace ?? '',
            },
            { gracePeriodSeconds: 0 },
          )
          .catch(() => undefined);
      }
    }, 100);
  }

  it('drains a Node: cordons, skips the DaemonSet Pod, evicts the others and waits for them', async () => {
    await nodeWithWorkload('n1');
    startKubelet();
    const r = await run(['drain', 'n1', '--ignore-daemonsets', '--timeout=30s']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('node/n1 cordoned');
    expect(r.err).toContain('Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-n1');
    expect(r.out).toContain('evicting pod default/web-n1');
    expect(r.out).toContain('pod/web-n1 evicted');
    expect(r.out).toContain('node/n1 drained');
    expect(
      t.server.client.get({ apiVersion: 'v1', kind: 'Pod', name: 'web-n1', namespace: 'default' }),
    ).toBeUndefined();
    expect(t.server.client.get({ apiVersion: 'v1', kind: 'Node', name: 'n1' })?.spec).toMatchObject(
      {
        unschedulable: true,
      },
    );
  }, 60_000);

  it('is refused by a PodDisruptionBudget as against a real cluster, and prints it with get pdb', async () => {
    await nodeWithWorkload('n2');
    await budget('web', { app: 'web' }, { desired: 1, current: 1, allowed: 0 });
    startKubelet();
    const pdb = await run(['get', 'pdb']);
    expect(pdb.out).toMatch(/NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE/);
    expect(pdb.out).toMatch(/web\s+1\s+N\/A\s+0\s+\S+/);
    const r = await run(['drain', 'n2', '--ignore-daemonsets', '--timeout=3s']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(
      `error when evicting pods/"web-n2" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
    );
    expect(
      t.server.client.get({ apiVersion: 'v1', kind: 'Pod', name: 'web-n2', namespace: 'default' }),
    ).toBeDefined();
    const pods = await run(['get', 'pods', '-A', '-o', 'wide']);
    expect(pods.out).toMatch(
      /NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/,
    );
    expect(pods.out).toMatch(
      /default\s+web-n2\s+1\/1\s+Running\s+0\s+\S+\s+10\.244\.0\.9\s+n2\s+<none>\s+<none>/,
    );
  }, 60_000);
});
