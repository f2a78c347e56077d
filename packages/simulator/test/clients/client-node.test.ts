/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-class-instance-assignment -- custom objects and Status bodies come back as arbitrary JSON; client-node models are plain data classes that its own docs fill with object literals */
import {
  AuthorizationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_HISTORY, startClientCluster, type ClientCluster } from './support';

/**
 * @kubernetes/client-node (the workspace's own Kubernetes client, as its users call it) against
 * the embedded demo cluster: the same workflows as the other client suites. A library, not a
 * program: its script is this file.
 */

const NS = 'cpaas-system';
const CAPI = { group: 'cluster.x-k8s.io', version: 'v1beta1', namespace: NS };
const MERGE = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

let env: ClientCluster;
let kc: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;

const statusOf = (e: unknown): any => {
  const body = (e as { body?: unknown }).body;
  return typeof body === 'string' ? JSON.parse(body) : body;
};
async function rejection(p: Promise<unknown>): Promise<{ code: number; status: any }> {
  try {
    await p;
  } catch (e) {
    return { code: (e as { code: number }).code, status: statusOf(e) };
  }
  throw new Error('no error');
}
const configmap = (name: string, data: Record<string, string> = {}, owner?: V1ConfigMap) =>
  core.createNamespacedConfigMap({
    namespace: NS,
    body: {
      metadata: {
        name,
        ...(owner
          ? {
              ownerReferences: [
                {
                  apiVersion: 'v1',
                  kind: 'ConfigMap',
                  name: owner.metadata?.name ?? '',
                  uid: owner.metadata?.uid ?? '',
                },
              ],
            }
          : {}),
      },
      data,
    },
  });
async function gone(name: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const r = await core.readNamespacedConfigMap({ name, namespace: NS }).catch((e: unknown) => e);
    if ((r as { code?: number }).code === 404) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${name} still there`);
}

/** The events of a watch from `resourceVersion` until `stop` says so (or 10 s). */
async function watchEvents(
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  stop: (types: string[]) => boolean,
): Promise<{ types: string[]; objects: any[]; error?: unknown }> {
  const types: string[] = [];
  const objects: any[] = [];
  let done!: (error?: unknown) => void;
  const finished = new Promise<unknown>((resolve) => (done = resolve));
  const timer = setTimeout(() => {
    done();
  }, 10_000);
  const ac = await new Watch(kc).watch(
    path,
    query,
    (type, obj) => {
      types.push(type);
      objects.push(obj);
      if (stop(types)) done();
    },
    (err: unknown) => {
      done(err);
    },
  );
  const error = await finished;
  clearTimeout(timer);
  ac.abort();
  return { types, objects, error };
}

describe('@kubernetes/client-node', () => {
  beforeAll(async () => {
    env = await startClientCluster('client-node');
    kc = new KubeConfig();
    kc.loadFromString(env.cluster.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  }, 120_000);
  afterAll(async () => {
    await env.close();
  });

  it('discovery and the generic object client on the Cluster API and DCS kinds', async () => {
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const mds = await objects.list('cluster.x-k8s.io/v1beta1', 'MachineDeployment', NS);
    expect(mds.items.length).toBeGreaterThan(0);
    const pools = await objects.list(
      'infrastructure.cluster.x-k8s.io/v1beta1',
      'DCSIpHostnamePool',
      NS,
    );
    expect(pools.items.length).toBeGreaterThan(0);
  });

  it('lists page by page with limit and continue', async () => {
    const all = await custom.listNamespacedCustomObject({ ...CAPI, plural: 'machinedeployments' });
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await custom.listNamespacedCustomObject({
        ...CAPI,
        plural: 'machinedeployments',
        limit: 2,
        ...(token ? { _continue: token } : {}),
      });
      names.push(...page.items.map((i: any) => i.metadata.name));
      // An empty continue is the last page.
      token = page.metadata.continue ? String(page.metadata.continue) : undefined;
    } while (token);
    expect(names).toEqual(all.items.map((i: any) => i.metadata.name));
    expect(names.length).toBeGreaterThan(2);
  });

  it('watches from a resourceVersion with bookmarks, and resumes after 410 from a new list', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: NS });
    await configmap('cn-watched', { a: '1' });
    const path = `/api/v1/namespaces/${NS}/configmaps`;
    const w = await watchEvents(
      path,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (t) => t.includes('BOOKMARK'),
    );
    expect(w.types[0]).toBe('ADDED');
    expect(w.objects[0].metadata.name).toBe('cn-watched');
    expect(w.types).toContain('BOOKMARK');

    const old = (await core.listNamespacedConfigMap({ namespace: NS })).metadata?.resourceVersion;
    for (let i = 0; i < WATCH_HISTORY + 5; i++)
      await core.patchNamespacedConfigMap(
        { name: 'cn-watched', namespace: NS, body: { data: { a: String(i) } } },
        MERGE,
      );
    const expired = await watchEvents(path, { resourceVersion: old }, () => true);
    const code =
      (expired.error as { statusCode?: number } | undefined)?.statusCode ??
      expired.objects[0]?.code;
    expect(code).toBe(410);
    const fresh = (await core.listNamespacedConfigMap({ namespace: NS })).metadata?.resourceVersion;
    await core.patchNamespacedConfigMap(
      { name: 'cn-watched', namespace: NS, body: { data: { a: 'last' } } },
      MERGE,
    );
    const resumed = await watchEvents(path, { resourceVersion: fresh }, (t) => t.length > 0);
    expect(resumed.types).toEqual(['MODIFIED']);
    expect(resumed.objects[0].data.a).toBe('last');
  });

  it('server-side applies with several managers: shared ownership, conflicts, force', async () => {
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const cm = (data: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cn-ssa', namespace: NS },
      data,
    });
    const apply = (data: Record<string, string>, manager: string, force = false) =>
      objects.patch(cm(data), undefined, undefined, manager, force, PatchStrategy.ServerSideApply);
    await apply({ a: '1', b: '2' }, 'alice');
    const both = await apply({ a: '1' }, 'bob');
    expect((both as unknown as V1ConfigMap).metadata?.managedFields?.map((e) => e.manager)).toEqual(
      ['alice', 'bob'],
    );
    const conflict = await rejection(apply({ b: '3' }, 'bob'));
    expect(conflict.code).toBe(409);
    expect(conflict.status.message).toBe(
      'Apply failed with 1 conflict: conflict with "alice": .data.b',
    );
    const forced = (await apply({ b: '3' }, 'bob', true)) as unknown as V1ConfigMap;
    expect(forced.data).toEqual({ a: '1', b: '3' });
  });

  it('scales through /scale and writes status through /status', async () => {
    const list = await custom.listNamespacedCustomObject({ ...CAPI, plural: 'machinedeployments' });
    const name: string = list.items[0].metadata.name;
    const scale = await custom.getNamespacedCustomObjectScale({
      ...CAPI,
      plural: 'machinedeployments',
      name,
    });
    const replicas: number = scale.spec.replicas;
    await custom.patchNamespacedCustomObjectScale(
      { ...CAPI, plural: 'machinedeployments', name, body: { spec: { replicas: replicas + 1 } } },
      MERGE,
    );
    const md = await custom.getNamespacedCustomObject({
      ...CAPI,
      plural: 'machinedeployments',
      name,
    });
    expect(md.spec.replicas).toBe(replicas + 1);
    const st = await custom.patchNamespacedCustomObjectStatus(
      { ...CAPI, plural: 'machinedeployments', name, body: { status: { phase: 'Failed' } } },
      MERGE,
    );
    expect(st.status.phase).toBe('Failed');
  });

  it('refuses a stale update (optimistic concurrency), and answers errors with their Status', async () => {
    const cm = await configmap('cn-occ', { v: '1' });
    await core.patchNamespacedConfigMap(
      { name: 'cn-occ', namespace: NS, body: { data: { v: '2' } } },
      MERGE,
    );
    const stale = await rejection(
      core.replaceNamespacedConfigMap({
        name: 'cn-occ',
        namespace: NS,
        body: { metadata: cm.metadata, data: { v: '3' } },
      }),
    );
    expect(stale.code).toBe(409);
    expect(stale.status.reason).toBe('Conflict');
    const missing = await rejection(
      custom.getNamespacedCustomObject({
        ...CAPI,
        plural: 'machinedeployments',
        name: 'no-such-pool',
      }),
    );
    expect(missing.code).toBe(404);
    expect(missing.status).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'machinedeployments.cluster.x-k8s.io "no-such-pool" not found',
      details: { name: 'no-such-pool', group: 'cluster.x-k8s.io', kind: 'machinedeployments' },
    });
  });

  it('deletes in the foreground and in the background', async () => {
    const fg = await configmap('cn-fg-owner');
    await configmap('cn-fg-child', {}, fg);
    await core.deleteNamespacedConfigMap({
      name: 'cn-fg-owner',
      namespace: NS,
      propagationPolicy: 'Foreground',
    });
    await gone('cn-fg-child');
    await gone('cn-fg-owner');
    const bg = await configmap('cn-bg-owner');
    await configmap('cn-bg-child', {}, bg);
    await core.deleteNamespacedConfigMap({
      name: 'cn-bg-owner',
      namespace: NS,
      body: { propagationPolicy: 'Background' },
    });
    await gone('cn-bg-owner', 1000);
    await gone('cn-bg-child');
  });

  it('answers access reviews for the viewer', async () => {
    const viewer = new KubeConfig();
    viewer.loadFromString(env.cluster.kubeconfig);
    viewer.setCurrentContext('sim-viewer');
    const authz = viewer.makeApiClient(AuthorizationV1Api);
    const can = async (verb: string, resource: string, group = 'cluster.x-k8s.io') =>
      (
        await authz.createSelfSubjectAccessReview({
          body: { spec: { resourceAttributes: { namespace: NS, verb, group, resource } } },
        })
      ).status?.allowed;
    expect(await can('list', 'machinedeployments')).toBe(true);
    expect(await can('patch', 'machinedeployments')).toBe(false);
    expect(await can('get', 'secrets', '')).toBe(false);
  });
});
