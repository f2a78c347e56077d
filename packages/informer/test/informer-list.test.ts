import { describe, expect, it, vi } from 'vitest';
import { record, startInformer, startServer } from './support/harness';

describe('Informer: the initial LIST', () => {
  it('lists 5,000 objects page by page, caches them, then watches from the list’s resourceVersion with bookmarks', async () => {
    const server = await startServer();
    server.seed(5_000);
    const listedAt = server.resourceVersion;
    const informer = startInformer(server, { pageSize: 500 });
    await informer.synced;

    expect(informer.hasSynced).toBe(true);
    expect(informer.list()).toHaveLength(5_000);
    expect(informer.get('default', 'm-04999')?.kind).toBe('Machine'); // filled in from the List kind
    const lists = server.listRequests();
    expect(lists).toHaveLength(10);
    expect(lists.every((r) => r.query.get('limit') === '500')).toBe(true);
    expect(lists[0]?.query.has('continue')).toBe(false);
    expect(lists.slice(1).every((r) => r.query.has('continue'))).toBe(true);

    await expect.poll(() => server.watchRequests()).toHaveLength(1);
    const watch = server.watchRequests()[0]?.query;
    expect(watch?.get('resourceVersion')).toBe(listedAt);
    expect(watch?.get('allowWatchBookmarks')).toBe('true');
    const timeoutSeconds = Number(watch?.get('timeoutSeconds'));
    expect(timeoutSeconds).toBeGreaterThanOrEqual(300);
    expect(timeoutSeconds).toBeLessThanOrEqual(600);
    expect(informer.metrics()).toMatchObject({ objects: 5_000, listRequests: 10, relists: 0 });
  });

  it('reads LIST pages larger than a megabyte (500 objects of 5 KB)', async () => {
    const server = await startServer();
    const blob = 'x'.repeat(5_000);
    for (let i = 0; i < 600; i += 1) server.add(`big-${String(i)}`, { spec: { blob } });
    const informer = startInformer(server, { pageSize: 500 });
    await informer.synced;
    expect(informer.list()).toHaveLength(600);
    expect(informer.metrics().errors).toBe(0);
  });

  it('passes the namespace, label and field selectors to LIST and WATCH', async () => {
    const server = await startServer();
    server.add('a', { labels: { pool: 'x' } });
    server.add('b', { labels: { pool: 'y' } });
    server.add('c', { namespace: 'other', labels: { pool: 'x' } });
    const informer = startInformer(
      server,
      {},
      {
        group: 'cluster.x-k8s.io',
        version: 'v1beta1',
        plural: 'machines',
        namespace: 'default',
        labelSelector: 'pool=x',
        fieldSelector: 'metadata.namespace=default',
      },
    );
    await informer.synced;
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['a']);
    await expect.poll(() => server.watchRequests()).toHaveLength(1);
    for (const request of [...server.listRequests(), ...server.watchRequests()]) {
      expect(request.path).toBe('/apis/cluster.x-k8s.io/v1beta1/namespaces/default/machines');
      expect(request.query.get('labelSelector')).toBe('pool=x');
      expect(request.query.get('fieldSelector')).toBe('metadata.namespace=default');
    }
    server.add('d', { labels: { pool: 'x' } });
    server.add('e', { labels: { pool: 'y' } });
    await expect.poll(() => informer.get('default', 'd')).toBeDefined();
    expect(informer.get('default', 'e')).toBeUndefined();
  });

  it('falls back to one unpaginated LIST when a continue token expires mid-way', async () => {
    const server = await startServer();
    server.seed(30);
    server.expireContinuesAfter(1);
    const informer = startInformer(server, { pageSize: 10 });
    await informer.synced;
    expect(informer.list()).toHaveLength(30);
    expect(
      server.listRequests().map((r) => [r.query.get('limit'), r.query.has('continue')]),
    ).toEqual([
      ['10', false],
      ['10', true], // 410 Expired
      [null, false],
    ]);
  });

  it('retries a failing LIST with backoff, reports each failure, and syncs once it succeeds', async () => {
    const server = await startServer();
    server.add('a');
    server.failLists(3, 503);
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    const log = record(informer);
    await informer.synced;
    expect(log).toEqual(['add a@rv-2']);
    expect(onError).toHaveBeenCalledTimes(3);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ statusCode: 503 }),
      expect.objectContaining({ phase: 'list', resource: 'machines.cluster.x-k8s.io/v1beta1' }),
    );
    expect(informer.metrics()).toMatchObject({ errors: 3, listRequests: 4 });
  });
});
