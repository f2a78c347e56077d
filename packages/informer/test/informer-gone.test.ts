import { describe, expect, it, vi } from 'vitest';
import type { FakeApiServer } from './support/fake-apiserver';
import { record, startInformer, startServer } from './support/harness';

/** a, b, c cached; then, while the informer is cut off: a deleted, b changed, c re-created, d added. */
async function missChanges(goneAs: 'http' | 'event'): Promise<{
  server: FakeApiServer;
  log: string[];
  informer: ReturnType<typeof startInformer>;
  onRelist: ReturnType<typeof vi.fn>;
}> {
  const server = await startServer();
  server.goneAs = goneAs;
  server.add('a');
  server.add('b');
  server.add('c');
  const onRelist = vi.fn();
  const informer = startInformer(server, { onRelist });
  const log = record(informer);
  await informer.synced;
  await expect.poll(() => server.openWatches).toBe(1);

  server.dropWatches();
  server.remove('a');
  server.update('b', { x: 1 });
  server.remove('c');
  server.add('c');
  server.add('d');
  server.compact();
  return { server, log, informer, onRelist };
}

const afterRelist = [
  'delete a@rv-2 (was a@rv-2) final state unknown',
  'delete c@rv-4 (was c@rv-4) final state unknown',
  'update b@rv-6 (was b@rv-3)',
  'add c@rv-8',
  'add d@rv-9',
];

describe('Informer: 410 Gone and relist', () => {
  it('relists on HTTP 410 and emits DELETED for what vanished, MODIFIED/ADDED for changes', async () => {
    const { server, log, informer, onRelist } = await missChanges('http');
    await expect.poll(() => informer.metrics().relists).toBe(1);
    expect(log.slice(3)).toEqual(afterRelist);
    expect(
      informer
        .list()
        .map((o) => o.metadata?.uid)
        .sort(),
    ).toEqual(['b', 'c', 'd'].map((n) => server.get(n)?.metadata.uid).sort());
    expect(onRelist).toHaveBeenLastCalledWith(
      expect.objectContaining({ reason: 'gone', added: 2, modified: 1, deleted: 2, objects: 3 }),
    );
    // The new watch starts from the relist's resourceVersion.
    await expect.poll(() => server.openWatches).toBe(1);
    expect(server.watchRequests().at(-1)?.query.get('resourceVersion')).toBe(
      server.resourceVersion,
    );
  });

  it('relists on an ERROR 410 event on a 200 stream, closing the stream itself', async () => {
    const { server, log, informer } = await missChanges('event');
    await expect.poll(() => informer.metrics().relists).toBe(1);
    expect(log.slice(3)).toEqual(afterRelist);
    // The server left the errored stream open; only the new one may remain.
    await expect.poll(() => server.openWatches).toBe(1);
    expect(informer.metrics().errors).toBe(1); // the cut connection; a 410 is not an error
  });

  it('relists on an ERROR event with reason Expired even without code 410', async () => {
    const server = await startServer();
    server.add('a');
    const informer = startInformer(server);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.scriptWatch({ kind: 'error-event', code: 0, reason: 'Expired' });
    server.add('b');
    server.endWatches(); // delivered an event, so a clean end: resume, which gets the ERROR
    await expect.poll(() => informer.metrics().relists).toBe(1);
    expect(informer.list()).toHaveLength(2);
  });

  it('treats other ERROR events as errors: back off and resume from the same resourceVersion', async () => {
    const server = await startServer();
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.scriptWatch({ kind: 'error-event', code: 500, reason: 'InternalError' });
    server.add('a');
    server.endWatches();
    await expect.poll(() => onError.mock.calls.length).toBe(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ statusCode: 500, reason: 'InternalError' });
    await expect.poll(() => server.watchRequests()).toHaveLength(3);
    expect(server.watchRequests()[2]?.query.get('resourceVersion')).toBe('rv-2');
    expect(informer.metrics().relists).toBe(0);
  });

  it('backs off when a watch from a fresh LIST is Gone again at once', async () => {
    const server = await startServer();
    server.goneAs = 'http';
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    await informer.synced;
    server.scriptWatch(
      { kind: 'status', code: 410, reason: 'Expired' },
      { kind: 'status', code: 410, reason: 'Expired' },
    );
    server.endWatches();
    server.add('x'); // so that the clean end above is not a "very short watch"
    await expect.poll(() => informer.metrics().relists).toBeGreaterThanOrEqual(2);
    await expect.poll(() => onError.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ statusCode: 410 });
  });
});
