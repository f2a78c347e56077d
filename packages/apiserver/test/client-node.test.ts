/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-class-instance-assignment -- custom objects come back as arbitrary JSON; client-node models are plain data classes that its own docs fill with object literals */
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../src/index';
import { testKinds } from './support/kinds';

let server: ApiServer;
let kc: KubeConfig;

beforeAll(async () => {
  server = await startApiServer({
    kinds: testKinds,
    tokens: [
      { token: 'op', user: 'operator', groups: ['system:masters'] },
      { token: 'ro', user: 'reader' },
    ],
    bookmarkIntervalMs: 100,
  });
  kc = new KubeConfig();
  kc.loadFromString(
    server.kubeconfig([
      { name: 'operator', token: 'op', namespace: 'default' },
      { name: 'reader', token: 'ro' },
    ]),
  );
});
afterAll(async () => {
  await server.close();
});

describe('@kubernetes/client-node over HTTPS with the emitted kubeconfig', () => {
  it('trusts the generated CA and uses typed and custom-object clients', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const core = kc.makeApiClient(CoreV1Api);
    const namespaces = await core.listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('default');
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'cfg' }, data: { a: 'b' } },
    });
    expect(
      (await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' })).data,
    ).toEqual({ a: 'b' });

    const custom = kc.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { color: 'red' },
      },
    });
    const patched = await custom.patchNamespacedCustomObject(
      {
        group: 'example.com',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        name: 'w',
        body: { spec: { size: 4 } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.spec.size).toBe(4);
    const list = await custom.listNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
    });
    expect(list.items).toHaveLength(1);
  });

  it('errors carry the Status the server sent', async () => {
    const reader = new KubeConfig();
    reader.loadFromString(server.kubeconfig([{ name: 'reader', token: 'ro' }]));
    const core = reader.makeApiClient(CoreV1Api);
    await expect(core.listNamespacedSecret({ namespace: 'default' })).rejects.toMatchObject({
      code: 403,
    });
  });

  it('server-side applies through KubernetesObjectApi', async () => {
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const spec: KubernetesObject & { spec: unknown } = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm1', namespace: 'default' },
      spec: { clusterName: 'c1' },
    };
    const applied = await objects.patch(
      spec,
      undefined,
      undefined,
      'test-manager',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect(applied.metadata?.managedFields?.[0]?.manager).toBe('test-manager');
  });

  it('watches with bookmarks through the Watch helper', async () => {
    const events: string[] = [];
    const watch = new Watch(kc);
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const ac = await watch.watch(
      '/apis/example.com/v1/namespaces/default/widgets',
      { allowWatchBookmarks: true },
      (type) => {
        events.push(type);
        if (events.includes('BOOKMARK') && events.includes('MODIFIED')) done();
      },
      () => {
        done();
      },
    );
    const custom = kc.makeApiClient(CustomObjectsApi);
    await custom.patchNamespacedCustomObject(
      {
        group: 'example.com',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        name: 'w',
        body: { spec: { size: 5 } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await finished;
    ac.abort();
    expect(events[0]).toBe('ADDED');
    expect(events).toEqual(expect.arrayContaining(['MODIFIED', 'BOOKMARK']));
  });
});
